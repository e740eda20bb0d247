/// The push gateway's and push service's entries of `/openapi.json` (docs/PUSH.md), merged into
/// ``OpenAPIDocument`` at its `paths` and `components.schemas`.
enum PushOpenAPIDocument {
    /// Path entries (members of `paths`, without the enclosing braces).
    static let paths = #"""
  "/api/v1/accounts/": {
    "post": {
      "operationId": "pushCreateAccount",
      "summary": "Create an account (201) or log in to it (200, a fresh API token).",
      "requestBody": {
        "required": true,
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/PushAccountRequest"
            }
          }
        }
      },
      "responses": {
        "201": {
          "description": "Created.",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/PushAccount"
              }
            }
          }
        },
        "200": {
          "description": "Logged in: the name exists and the password is right.",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/PushAccount"
              }
            }
          }
        },
        "400": {
          "$ref": "#/components/responses/PushInvalid"
        },
        "401": {
          "description": "Wrong password: `{\"error\":\"Invalid credentials\"}`.",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/PushError"
              }
            }
          }
        },
        "413": {
          "$ref": "#/components/responses/PushBodyTooLarge"
        },
        "415": {
          "$ref": "#/components/responses/PushUnsupportedMediaType"
        },
        "429": {
          "$ref": "#/components/responses/PushRateLimited"
        },
        "500": {
          "$ref": "#/components/responses/PushStoreFailed"
        }
      }
    },
    "get": {
      "operationId": "pushOwnAccount",
      "summary": "The caller's account.",
      "parameters": [
        {
          "name": "Authorization",
          "in": "header",
          "required": false,
          "description": "`Token <40 lowercase hex>` (the account's API token).",
          "schema": {
            "type": "string"
          }
        }
      ],
      "responses": {
        "200": {
          "description": "The account.",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/PushAccount"
              }
            }
          }
        },
        "401": {
          "$ref": "#/components/responses/PushUnauthorized"
        },
        "429": {
          "$ref": "#/components/responses/PushRateLimited"
        },
        "500": {
          "$ref": "#/components/responses/PushStoreFailed"
        }
      }
    }
  },
  "/api/v1/accounts/{username}/": {
    "get": {
      "operationId": "pushAccount",
      "summary": "One's own account (403 for another's).",
      "parameters": [
        {
          "name": "Authorization",
          "in": "header",
          "required": false,
          "description": "`Token <40 lowercase hex>` (the account's API token).",
          "schema": {
            "type": "string"
          }
        },
        {
          "name": "username",
          "in": "path",
          "required": true,
          "schema": {
            "type": "string"
          }
        }
      ],
      "responses": {
        "200": {
          "description": "The account.",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/PushAccount"
              }
            }
          }
        },
        "401": {
          "$ref": "#/components/responses/PushUnauthorized"
        },
        "403": {
          "description": "Another account.",
          "content": {
            "application/json": {
              "schema": {
                "type": "object"
              }
            }
          }
        },
        "404": {
          "$ref": "#/components/responses/PushNotFound"
        },
        "429": {
          "$ref": "#/components/responses/PushRateLimited"
        },
        "500": {
          "$ref": "#/components/responses/PushStoreFailed"
        }
      }
    },
    "delete": {
      "operationId": "pushDeleteAccount",
      "summary": "Delete one's own account with its devices and tokens.",
      "parameters": [
        {
          "name": "Authorization",
          "in": "header",
          "required": false,
          "description": "`Token <40 lowercase hex>` (the account's API token).",
          "schema": {
            "type": "string"
          }
        },
        {
          "name": "username",
          "in": "path",
          "required": true,
          "schema": {
            "type": "string"
          }
        }
      ],
      "responses": {
        "204": {
          "description": "Deleted."
        },
        "401": {
          "$ref": "#/components/responses/PushUnauthorized"
        },
        "403": {
          "description": "Another account.",
          "content": {
            "application/json": {
              "schema": {
                "type": "object"
              }
            }
          }
        },
        "404": {
          "$ref": "#/components/responses/PushNotFound"
        },
        "429": {
          "$ref": "#/components/responses/PushRateLimited"
        },
        "500": {
          "$ref": "#/components/responses/PushStoreFailed"
        }
      }
    }
  },
  "/api/v1/device/apns/": {
    "post": {
      "operationId": "pushRegister_apns",
      "summary": "Register a device (201), or answer the owner's device with that registration id (200, reactivated).",
      "parameters": [
        {
          "name": "Authorization",
          "in": "header",
          "required": false,
          "description": "`Token <40 lowercase hex>` (the account's API token).",
          "schema": {
            "type": "string"
          }
        }
      ],
      "requestBody": {
        "required": true,
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/PushRegistrationRequest"
            }
          }
        }
      },
      "responses": {
        "201": {
          "description": "Created.",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/PushRegistrationDevice"
              }
            }
          }
        },
        "200": {
          "description": "Already registered.",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/PushRegistrationDevice"
              }
            }
          }
        },
        "400": {
          "$ref": "#/components/responses/PushInvalid"
        },
        "401": {
          "$ref": "#/components/responses/PushUnauthorized"
        },
        "413": {
          "$ref": "#/components/responses/PushBodyTooLarge"
        },
        "415": {
          "$ref": "#/components/responses/PushUnsupportedMediaType"
        },
        "429": {
          "$ref": "#/components/responses/PushRateLimited"
        },
        "500": {
          "$ref": "#/components/responses/PushStoreFailed"
        }
      }
    },
    "get": {
      "operationId": "pushList_apns",
      "summary": "The caller's devices of this kind (a JSON array).",
      "parameters": [
        {
          "name": "Authorization",
          "in": "header",
          "required": false,
          "description": "`Token <40 lowercase hex>` (the account's API token).",
          "schema": {
            "type": "string"
          }
        }
      ],
      "responses": {
        "200": {
          "description": "Devices.",
          "content": {
            "application/json": {
              "schema": {
                "type": "array",
                "items": {
                  "$ref": "#/components/schemas/PushRegistrationDevice"
                }
              }
            }
          }
        },
        "401": {
          "$ref": "#/components/responses/PushUnauthorized"
        },
        "429": {
          "$ref": "#/components/responses/PushRateLimited"
        },
        "500": {
          "$ref": "#/components/responses/PushStoreFailed"
        }
      }
    }
  },
  "/api/v1/device/apns/{id}/": {
    "get": {
      "operationId": "pushGet_apns",
      "summary": "One of the caller's devices.",
      "parameters": [
        {
          "name": "Authorization",
          "in": "header",
          "required": false,
          "description": "`Token <40 lowercase hex>` (the account's API token).",
          "schema": {
            "type": "string"
          }
        },
        {
          "name": "id",
          "in": "path",
          "required": true,
          "schema": {
            "type": "string"
          }
        }
      ],
      "responses": {
        "200": {
          "description": "The device.",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/PushRegistrationDevice"
              }
            }
          }
        },
        "401": {
          "$ref": "#/components/responses/PushUnauthorized"
        },
        "404": {
          "$ref": "#/components/responses/PushNotFound"
        },
        "429": {
          "$ref": "#/components/responses/PushRateLimited"
        },
        "500": {
          "$ref": "#/components/responses/PushStoreFailed"
        }
      }
    },
    "put": {
      "operationId": "pushPut_apns",
      "summary": "Replace a device's fields.",
      "parameters": [
        {
          "name": "Authorization",
          "in": "header",
          "required": false,
          "description": "`Token <40 lowercase hex>` (the account's API token).",
          "schema": {
            "type": "string"
          }
        },
        {
          "name": "id",
          "in": "path",
          "required": true,
          "schema": {
            "type": "string"
          }
        }
      ],
      "requestBody": {
        "required": true,
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/PushRegistrationRequest"
            }
          }
        }
      },
      "responses": {
        "200": {
          "description": "The device.",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/PushRegistrationDevice"
              }
            }
          }
        },
        "401": {
          "$ref": "#/components/responses/PushUnauthorized"
        },
        "404": {
          "$ref": "#/components/responses/PushNotFound"
        },
        "429": {
          "$ref": "#/components/responses/PushRateLimited"
        },
        "500": {
          "$ref": "#/components/responses/PushStoreFailed"
        },
        "400": {
          "$ref": "#/components/responses/PushInvalid"
        },
        "413": {
          "$ref": "#/components/responses/PushBodyTooLarge"
        },
        "415": {
          "$ref": "#/components/responses/PushUnsupportedMediaType"
        }
      }
    },
    "patch": {
      "operationId": "pushPatch_apns",
      "summary": "Change some of a device's fields.",
      "parameters": [
        {
          "name": "Authorization",
          "in": "header",
          "required": false,
          "description": "`Token <40 lowercase hex>` (the account's API token).",
          "schema": {
            "type": "string"
          }
        },
        {
          "name": "id",
          "in": "path",
          "required": true,
          "schema": {
            "type": "string"
          }
        }
      ],
      "requestBody": {
        "required": false,
        "content": {
          "application/json": {
            "schema": {
              "type": "object"
            }
          }
        }
      },
      "responses": {
        "200": {
          "description": "The device.",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/PushRegistrationDevice"
              }
            }
          }
        },
        "401": {
          "$ref": "#/components/responses/PushUnauthorized"
        },
        "404": {
          "$ref": "#/components/responses/PushNotFound"
        },
        "429": {
          "$ref": "#/components/responses/PushRateLimited"
        },
        "500": {
          "$ref": "#/components/responses/PushStoreFailed"
        },
        "400": {
          "$ref": "#/components/responses/PushInvalid"
        },
        "413": {
          "$ref": "#/components/responses/PushBodyTooLarge"
        },
        "415": {
          "$ref": "#/components/responses/PushUnsupportedMediaType"
        }
      }
    },
    "delete": {
      "operationId": "pushDelete_apns",
      "summary": "Delete a device and its tokens.",
      "parameters": [
        {
          "name": "Authorization",
          "in": "header",
          "required": false,
          "description": "`Token <40 lowercase hex>` (the account's API token).",
          "schema": {
            "type": "string"
          }
        },
        {
          "name": "id",
          "in": "path",
          "required": true,
          "schema": {
            "type": "string"
          }
        }
      ],
      "responses": {
        "204": {
          "description": "Deleted."
        },
        "401": {
          "$ref": "#/components/responses/PushUnauthorized"
        },
        "404": {
          "$ref": "#/components/responses/PushNotFound"
        },
        "429": {
          "$ref": "#/components/responses/PushRateLimited"
        },
        "500": {
          "$ref": "#/components/responses/PushStoreFailed"
        }
      }
    }
  },
  "/api/v1/device/gcm/": {
    "post": {
      "operationId": "pushRegister_gcm",
      "summary": "Register a device (201), or answer the owner's device with that registration id (200, reactivated).",
      "parameters": [
        {
          "name": "Authorization",
          "in": "header",
          "required": false,
          "description": "`Token <40 lowercase hex>` (the account's API token).",
          "schema": {
            "type": "string"
          }
        }
      ],
      "requestBody": {
        "required": true,
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/PushRegistrationRequest"
            }
          }
        }
      },
      "responses": {
        "201": {
          "description": "Created.",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/PushRegistrationDevice"
              }
            }
          }
        },
        "200": {
          "description": "Already registered.",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/PushRegistrationDevice"
              }
            }
          }
        },
        "400": {
          "$ref": "#/components/responses/PushInvalid"
        },
        "401": {
          "$ref": "#/components/responses/PushUnauthorized"
        },
        "413": {
          "$ref": "#/components/responses/PushBodyTooLarge"
        },
        "415": {
          "$ref": "#/components/responses/PushUnsupportedMediaType"
        },
        "429": {
          "$ref": "#/components/responses/PushRateLimited"
        },
        "500": {
          "$ref": "#/components/responses/PushStoreFailed"
        }
      }
    },
    "get": {
      "operationId": "pushList_gcm",
      "summary": "The caller's devices of this kind (a JSON array).",
      "parameters": [
        {
          "name": "Authorization",
          "in": "header",
          "required": false,
          "description": "`Token <40 lowercase hex>` (the account's API token).",
          "schema": {
            "type": "string"
          }
        }
      ],
      "responses": {
        "200": {
          "description": "Devices.",
          "content": {
            "application/json": {
              "schema": {
                "type": "array",
                "items": {
                  "$ref": "#/components/schemas/PushRegistrationDevice"
                }
              }
            }
          }
        },
        "401": {
          "$ref": "#/components/responses/PushUnauthorized"
        },
        "429": {
          "$ref": "#/components/responses/PushRateLimited"
        },
        "500": {
          "$ref": "#/components/responses/PushStoreFailed"
        }
      }
    }
  },
  "/api/v1/device/gcm/{id}/": {
    "get": {
      "operationId": "pushGet_gcm",
      "summary": "One of the caller's devices.",
      "parameters": [
        {
          "name": "Authorization",
          "in": "header",
          "required": false,
          "description": "`Token <40 lowercase hex>` (the account's API token).",
          "schema": {
            "type": "string"
          }
        },
        {
          "name": "id",
          "in": "path",
          "required": true,
          "schema": {
            "type": "string"
          }
        }
      ],
      "responses": {
        "200": {
          "description": "The device.",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/PushRegistrationDevice"
              }
            }
          }
        },
        "401": {
          "$ref": "#/components/responses/PushUnauthorized"
        },
        "404": {
          "$ref": "#/components/responses/PushNotFound"
        },
        "429": {
          "$ref": "#/components/responses/PushRateLimited"
        },
        "500": {
          "$ref": "#/components/responses/PushStoreFailed"
        }
      }
    },
    "put": {
      "operationId": "pushPut_gcm",
      "summary": "Replace a device's fields.",
      "parameters": [
        {
          "name": "Authorization",
          "in": "header",
          "required": false,
          "description": "`Token <40 lowercase hex>` (the account's API token).",
          "schema": {
            "type": "string"
          }
        },
        {
          "name": "id",
          "in": "path",
          "required": true,
          "schema": {
            "type": "string"
          }
        }
      ],
      "requestBody": {
        "required": true,
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/PushRegistrationRequest"
            }
          }
        }
      },
      "responses": {
        "200": {
          "description": "The device.",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/PushRegistrationDevice"
              }
            }
          }
        },
        "401": {
          "$ref": "#/components/responses/PushUnauthorized"
        },
        "404": {
          "$ref": "#/components/responses/PushNotFound"
        },
        "429": {
          "$ref": "#/components/responses/PushRateLimited"
        },
        "500": {
          "$ref": "#/components/responses/PushStoreFailed"
        },
        "400": {
          "$ref": "#/components/responses/PushInvalid"
        },
        "413": {
          "$ref": "#/components/responses/PushBodyTooLarge"
        },
        "415": {
          "$ref": "#/components/responses/PushUnsupportedMediaType"
        }
      }
    },
    "patch": {
      "operationId": "pushPatch_gcm",
      "summary": "Change some of a device's fields.",
      "parameters": [
        {
          "name": "Authorization",
          "in": "header",
          "required": false,
          "description": "`Token <40 lowercase hex>` (the account's API token).",
          "schema": {
            "type": "string"
          }
        },
        {
          "name": "id",
          "in": "path",
          "required": true,
          "schema": {
            "type": "string"
          }
        }
      ],
      "requestBody": {
        "required": false,
        "content": {
          "application/json": {
            "schema": {
              "type": "object"
            }
          }
        }
      },
      "responses": {
        "200": {
          "description": "The device.",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/PushRegistrationDevice"
              }
            }
          }
        },
        "401": {
          "$ref": "#/components/responses/PushUnauthorized"
        },
        "404": {
          "$ref": "#/components/responses/PushNotFound"
        },
        "429": {
          "$ref": "#/components/responses/PushRateLimited"
        },
        "500": {
          "$ref": "#/components/responses/PushStoreFailed"
        },
        "400": {
          "$ref": "#/components/responses/PushInvalid"
        },
        "413": {
          "$ref": "#/components/responses/PushBodyTooLarge"
        },
        "415": {
          "$ref": "#/components/responses/PushUnsupportedMediaType"
        }
      }
    },
    "delete": {
      "operationId": "pushDelete_gcm",
      "summary": "Delete a device and its tokens.",
      "parameters": [
        {
          "name": "Authorization",
          "in": "header",
          "required": false,
          "description": "`Token <40 lowercase hex>` (the account's API token).",
          "schema": {
            "type": "string"
          }
        },
        {
          "name": "id",
          "in": "path",
          "required": true,
          "schema": {
            "type": "string"
          }
        }
      ],
      "responses": {
        "204": {
          "description": "Deleted."
        },
        "401": {
          "$ref": "#/components/responses/PushUnauthorized"
        },
        "404": {
          "$ref": "#/components/responses/PushNotFound"
        },
        "429": {
          "$ref": "#/components/responses/PushRateLimited"
        },
        "500": {
          "$ref": "#/components/responses/PushStoreFailed"
        }
      }
    }
  },
  "/api/v1/device/webpush/": {
    "post": {
      "operationId": "pushRegister_webpush",
      "summary": "Register a device (201), or answer the owner's device with that registration id (200, reactivated).",
      "parameters": [
        {
          "name": "Authorization",
          "in": "header",
          "required": false,
          "description": "`Token <40 lowercase hex>` (the account's API token).",
          "schema": {
            "type": "string"
          }
        }
      ],
      "requestBody": {
        "required": true,
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/PushWebPushRequest"
            }
          }
        }
      },
      "responses": {
        "201": {
          "description": "Created.",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/PushWebPushDevice"
              }
            }
          }
        },
        "200": {
          "description": "Already registered.",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/PushWebPushDevice"
              }
            }
          }
        },
        "400": {
          "$ref": "#/components/responses/PushInvalid"
        },
        "401": {
          "$ref": "#/components/responses/PushUnauthorized"
        },
        "413": {
          "$ref": "#/components/responses/PushBodyTooLarge"
        },
        "415": {
          "$ref": "#/components/responses/PushUnsupportedMediaType"
        },
        "429": {
          "$ref": "#/components/responses/PushRateLimited"
        },
        "500": {
          "$ref": "#/components/responses/PushStoreFailed"
        }
      }
    },
    "get": {
      "operationId": "pushList_webpush",
      "summary": "The caller's devices of this kind (a JSON array).",
      "parameters": [
        {
          "name": "Authorization",
          "in": "header",
          "required": false,
          "description": "`Token <40 lowercase hex>` (the account's API token).",
          "schema": {
            "type": "string"
          }
        }
      ],
      "responses": {
        "200": {
          "description": "Devices.",
          "content": {
            "application/json": {
              "schema": {
                "type": "array",
                "items": {
                  "$ref": "#/components/schemas/PushWebPushDevice"
                }
              }
            }
          }
        },
        "401": {
          "$ref": "#/components/responses/PushUnauthorized"
        },
        "429": {
          "$ref": "#/components/responses/PushRateLimited"
        },
        "500": {
          "$ref": "#/components/responses/PushStoreFailed"
        }
      }
    }
  },
  "/api/v1/device/webpush/{id}/": {
    "get": {
      "operationId": "pushGet_webpush",
      "summary": "One of the caller's devices.",
      "parameters": [
        {
          "name": "Authorization",
          "in": "header",
          "required": false,
          "description": "`Token <40 lowercase hex>` (the account's API token).",
          "schema": {
            "type": "string"
          }
        },
        {
          "name": "id",
          "in": "path",
          "required": true,
          "schema": {
            "type": "string"
          }
        }
      ],
      "responses": {
        "200": {
          "description": "The device.",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/PushWebPushDevice"
              }
            }
          }
        },
        "401": {
          "$ref": "#/components/responses/PushUnauthorized"
        },
        "404": {
          "$ref": "#/components/responses/PushNotFound"
        },
        "429": {
          "$ref": "#/components/responses/PushRateLimited"
        },
        "500": {
          "$ref": "#/components/responses/PushStoreFailed"
        }
      }
    },
    "put": {
      "operationId": "pushPut_webpush",
      "summary": "Replace a device's fields.",
      "parameters": [
        {
          "name": "Authorization",
          "in": "header",
          "required": false,
          "description": "`Token <40 lowercase hex>` (the account's API token).",
          "schema": {
            "type": "string"
          }
        },
        {
          "name": "id",
          "in": "path",
          "required": true,
          "schema": {
            "type": "string"
          }
        }
      ],
      "requestBody": {
        "required": true,
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/PushWebPushRequest"
            }
          }
        }
      },
      "responses": {
        "200": {
          "description": "The device.",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/PushWebPushDevice"
              }
            }
          }
        },
        "401": {
          "$ref": "#/components/responses/PushUnauthorized"
        },
        "404": {
          "$ref": "#/components/responses/PushNotFound"
        },
        "429": {
          "$ref": "#/components/responses/PushRateLimited"
        },
        "500": {
          "$ref": "#/components/responses/PushStoreFailed"
        },
        "400": {
          "$ref": "#/components/responses/PushInvalid"
        },
        "413": {
          "$ref": "#/components/responses/PushBodyTooLarge"
        },
        "415": {
          "$ref": "#/components/responses/PushUnsupportedMediaType"
        }
      }
    },
    "patch": {
      "operationId": "pushPatch_webpush",
      "summary": "Change some of a device's fields.",
      "parameters": [
        {
          "name": "Authorization",
          "in": "header",
          "required": false,
          "description": "`Token <40 lowercase hex>` (the account's API token).",
          "schema": {
            "type": "string"
          }
        },
        {
          "name": "id",
          "in": "path",
          "required": true,
          "schema": {
            "type": "string"
          }
        }
      ],
      "requestBody": {
        "required": false,
        "content": {
          "application/json": {
            "schema": {
              "type": "object"
            }
          }
        }
      },
      "responses": {
        "200": {
          "description": "The device.",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/PushWebPushDevice"
              }
            }
          }
        },
        "401": {
          "$ref": "#/components/responses/PushUnauthorized"
        },
        "404": {
          "$ref": "#/components/responses/PushNotFound"
        },
        "429": {
          "$ref": "#/components/responses/PushRateLimited"
        },
        "500": {
          "$ref": "#/components/responses/PushStoreFailed"
        },
        "400": {
          "$ref": "#/components/responses/PushInvalid"
        },
        "413": {
          "$ref": "#/components/responses/PushBodyTooLarge"
        },
        "415": {
          "$ref": "#/components/responses/PushUnsupportedMediaType"
        }
      }
    },
    "delete": {
      "operationId": "pushDelete_webpush",
      "summary": "Delete a device and its tokens.",
      "parameters": [
        {
          "name": "Authorization",
          "in": "header",
          "required": false,
          "description": "`Token <40 lowercase hex>` (the account's API token).",
          "schema": {
            "type": "string"
          }
        },
        {
          "name": "id",
          "in": "path",
          "required": true,
          "schema": {
            "type": "string"
          }
        }
      ],
      "responses": {
        "204": {
          "description": "Deleted."
        },
        "401": {
          "$ref": "#/components/responses/PushUnauthorized"
        },
        "404": {
          "$ref": "#/components/responses/PushNotFound"
        },
        "429": {
          "$ref": "#/components/responses/PushRateLimited"
        },
        "500": {
          "$ref": "#/components/responses/PushStoreFailed"
        }
      }
    }
  },
  "/api/v1/tokens/": {
    "post": {
      "operationId": "pushCreateTokens",
      "summary": "Create one whitelist token for a device, or `count` of them (`{\"results\":[\u2026]}`).",
      "parameters": [
        {
          "name": "Authorization",
          "in": "header",
          "required": false,
          "description": "`Token <40 lowercase hex>` (the account's API token).",
          "schema": {
            "type": "string"
          }
        }
      ],
      "requestBody": {
        "required": true,
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/PushTokenRequest"
            }
          }
        }
      },
      "responses": {
        "201": {
          "description": "Created.",
          "content": {
            "application/json": {
              "schema": {
                "oneOf": [
                  {
                    "$ref": "#/components/schemas/PushToken"
                  },
                  {
                    "$ref": "#/components/schemas/PushTokenBatch"
                  }
                ]
              }
            }
          }
        },
        "400": {
          "$ref": "#/components/responses/PushInvalid"
        },
        "401": {
          "$ref": "#/components/responses/PushUnauthorized"
        },
        "413": {
          "$ref": "#/components/responses/PushBodyTooLarge"
        },
        "415": {
          "$ref": "#/components/responses/PushUnsupportedMediaType"
        },
        "429": {
          "$ref": "#/components/responses/PushRateLimited"
        },
        "500": {
          "$ref": "#/components/responses/PushStoreFailed"
        }
      }
    },
    "get": {
      "operationId": "pushListTokens",
      "summary": "The caller's tokens, as digests (tokens are stored hashed).",
      "parameters": [
        {
          "name": "Authorization",
          "in": "header",
          "required": false,
          "description": "`Token <40 lowercase hex>` (the account's API token).",
          "schema": {
            "type": "string"
          }
        }
      ],
      "responses": {
        "200": {
          "description": "Tokens.",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/PushTokenList"
              }
            }
          }
        },
        "401": {
          "$ref": "#/components/responses/PushUnauthorized"
        },
        "429": {
          "$ref": "#/components/responses/PushRateLimited"
        },
        "500": {
          "$ref": "#/components/responses/PushStoreFailed"
        }
      }
    }
  },
  "/api/v1/tokens/{token}/": {
    "get": {
      "operationId": "pushGetToken",
      "summary": "One of the caller's tokens.",
      "parameters": [
        {
          "name": "Authorization",
          "in": "header",
          "required": false,
          "description": "`Token <40 lowercase hex>` (the account's API token).",
          "schema": {
            "type": "string"
          }
        },
        {
          "name": "token",
          "in": "path",
          "required": true,
          "schema": {
            "type": "string"
          }
        }
      ],
      "responses": {
        "200": {
          "description": "The token.",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/PushToken"
              }
            }
          }
        },
        "401": {
          "$ref": "#/components/responses/PushUnauthorized"
        },
        "404": {
          "$ref": "#/components/responses/PushNotFound"
        },
        "429": {
          "$ref": "#/components/responses/PushRateLimited"
        },
        "500": {
          "$ref": "#/components/responses/PushStoreFailed"
        }
      }
    },
    "delete": {
      "operationId": "pushRevokeToken",
      "summary": "Revoke a token: its knocks answer 404 from now on.",
      "parameters": [
        {
          "name": "Authorization",
          "in": "header",
          "required": false,
          "description": "`Token <40 lowercase hex>` (the account's API token).",
          "schema": {
            "type": "string"
          }
        },
        {
          "name": "token",
          "in": "path",
          "required": true,
          "schema": {
            "type": "string"
          }
        }
      ],
      "responses": {
        "204": {
          "description": "Revoked."
        },
        "401": {
          "$ref": "#/components/responses/PushUnauthorized"
        },
        "404": {
          "$ref": "#/components/responses/PushNotFound"
        },
        "429": {
          "$ref": "#/components/responses/PushRateLimited"
        },
        "500": {
          "$ref": "#/components/responses/PushStoreFailed"
        }
      }
    }
  },
  "/api/v1/messages/": {
    "post": {
      "operationId": "pushKnock",
      "summary": "The knock: wake every active device of the token's owner (no auth; delivery is queued).",
      "requestBody": {
        "required": true,
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/PushKnock"
            }
          }
        }
      },
      "responses": {
        "202": {
          "description": "Accepted: the echo.",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/PushKnockEcho"
              }
            }
          }
        },
        "400": {
          "$ref": "#/components/responses/PushInvalid"
        },
        "404": {
          "description": "Unknown, expired or revoked token: empty body."
        },
        "413": {
          "$ref": "#/components/responses/PushBodyTooLarge"
        },
        "415": {
          "$ref": "#/components/responses/PushUnsupportedMediaType"
        },
        "429": {
          "$ref": "#/components/responses/PushRateLimited"
        },
        "500": {
          "$ref": "#/components/responses/PushStoreFailed"
        }
      }
    }
  },
  "/push/subscriptions": {
    "post": {
      "operationId": "pushSubscribe",
      "summary": "Create a push subscription (optionally restricted to a VAPID key, RFC 8292 \u00a74).",
      "requestBody": {
        "required": false,
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/PushSubscriptionRequest"
            }
          }
        }
      },
      "responses": {
        "201": {
          "description": "Created.",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/PushSubscription"
              }
            }
          },
          "headers": {
            "Location": {
              "required": true,
              "schema": {
                "type": "string"
              },
              "description": "`/push/subscriptions/<secret>`."
            },
            "Link": {
              "required": true,
              "schema": {
                "type": "string"
              },
              "description": "`<endpoint>; rel=\"urn:ietf:params:push\"`."
            }
          }
        },
        "400": {
          "$ref": "#/components/responses/PushInvalid"
        },
        "415": {
          "$ref": "#/components/responses/PushUnsupportedMediaType"
        },
        "429": {
          "$ref": "#/components/responses/PushRateLimited"
        },
        "500": {
          "$ref": "#/components/responses/PushStoreFailed"
        }
      }
    }
  },
  "/push/subscriptions/{secret}": {
    "delete": {
      "operationId": "pushUnsubscribe",
      "summary": "Delete a subscription: its endpoint answers 410 from now on. Its messages are read over a WebSocket upgrade of `GET /push/subscriptions/{secret}/ws` (docs/PUSH.md).",
      "parameters": [
        {
          "name": "secret",
          "in": "path",
          "required": true,
          "schema": {
            "type": "string"
          }
        }
      ],
      "responses": {
        "204": {
          "description": "Deleted."
        },
        "404": {
          "$ref": "#/components/responses/PushNotFound"
        },
        "429": {
          "$ref": "#/components/responses/PushRateLimited"
        },
        "500": {
          "$ref": "#/components/responses/PushStoreFailed"
        }
      }
    }
  },
  "/push/{capability}": {
    "post": {
      "operationId": "pushMessage",
      "summary": "Push a message (an RFC 8291 aes128gcm body of 1 to 4096 bytes) to a subscription (RFC 8030 \u00a75).",
      "parameters": [
        {
          "name": "capability",
          "in": "path",
          "required": true,
          "schema": {
            "type": "string",
            "pattern": "^[A-Za-z0-9_-]{32}$"
          }
        },
        {
          "name": "TTL",
          "in": "header",
          "required": false,
          "description": "Seconds to keep the message (RFC 8030 \u00a75.2; a request without it answers 400).",
          "schema": {
            "type": "string",
            "pattern": "^[0-9]{1,20}$"
          }
        },
        {
          "name": "Urgency",
          "in": "header",
          "required": false,
          "schema": {
            "type": "string",
            "enum": [
              "very-low",
              "low",
              "normal",
              "high"
            ]
          }
        },
        {
          "name": "Topic",
          "in": "header",
          "required": false,
          "schema": {
            "type": "string",
            "pattern": "^[A-Za-z0-9_-]{1,32}$"
          }
        }
      ],
      "requestBody": {
        "required": true,
        "content": {
          "application/octet-stream": {
            "schema": {
              "type": "string",
              "format": "binary"
            }
          }
        }
      },
      "responses": {
        "201": {
          "description": "Stored (or, with TTL 0, offered to a connected subscriber).",
          "headers": {
            "Location": {
              "required": true,
              "schema": {
                "type": "string"
              }
            },
            "TTL": {
              "required": true,
              "schema": {
                "type": "string",
                "pattern": "^[0-9]+$"
              }
            }
          }
        },
        "400": {
          "$ref": "#/components/responses/PushInvalid"
        },
        "401": {
          "description": "A restricted subscription without VAPID.",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/PushError"
              }
            }
          }
        },
        "403": {
          "description": "VAPID did not verify.",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/PushError"
              }
            }
          }
        },
        "404": {
          "$ref": "#/components/responses/PushNotFound"
        },
        "410": {
          "description": "The subscription was deleted."
        },
        "413": {
          "description": "Over 4096 bytes.",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/PushError"
              }
            }
          }
        },
        "429": {
          "$ref": "#/components/responses/PushRateLimited"
        },
        "500": {
          "$ref": "#/components/responses/PushStoreFailed"
        }
      }
    }
  }
"""#

    /// Responses shared by many push endpoints (members of `components.responses`), referenced as
    /// `#/components/responses/NAME`.
    static let responses = #"""
  "PushInvalid": {
    "content": {
      "application/json": {
        "schema": {
          "type": "object"
        }
      }
    },
    "description": "Validation failed: DRF's `{field: [messages]}` or `{\"error\": \u2026}`."
  },
  "PushUnauthorized": {
    "content": {
      "application/json": {
        "schema": {
          "type": "object"
        }
      }
    },
    "description": "Missing or unknown `Authorization: Token <40 hex>`."
  },
  "PushNotFound": {
    "description": "Unknown (or another owner's) resource: empty body."
  },
  "PushBodyTooLarge": {
    "content": {
      "application/json": {
        "schema": {
          "$ref": "#/components/schemas/PushError"
        }
      }
    },
    "description": "The body is larger than 8192 bytes."
  },
  "PushUnsupportedMediaType": {
    "content": {
      "application/json": {
        "schema": {
          "$ref": "#/components/schemas/PushError"
        }
      }
    },
    "description": "The body is not declared `Content-Type: application/json` (parameters such as `charset` allowed), or a body came without a `Content-Type`: `{\"error\": \"unsupported_media_type\"}`."
  },
  "PushRateLimited": {
    "content": {
      "application/json": {
        "schema": {
          "$ref": "#/components/schemas/PushError"
        }
      }
    },
    "description": "Rate-limited (per source, per token or per subscription): retry after `Retry-After` seconds.",
    "headers": {
      "Retry-After": {
        "required": true,
        "schema": {
          "pattern": "^[0-9]+$",
          "type": "string"
        }
      }
    }
  },
  "PushStoreFailed": {
    "content": {
      "application/json": {
        "schema": {
          "$ref": "#/components/schemas/PushError"
        }
      }
    },
    "description": "The store failed; details only in the server's log."
  }
"""#

    /// Schema entries (members of `components.schemas`, without the enclosing braces).
    static let schemas = #"""
  "PushError": {
    "type": "object",
    "properties": {
      "error": {
        "type": "string"
      }
    }
  },
  "PushAccountRequest": {
    "type": "object",
    "required": [
      "username",
      "password"
    ],
    "properties": {
      "username": {
        "type": "string",
        "pattern": "^[A-Za-z0-9@.+_-]{1,30}$"
      },
      "password": {
        "type": "string",
        "minLength": 1,
        "maxLength": 100
      },
      "email": {
        "type": [
          "string",
          "null"
        ],
        "maxLength": 254
      }
    }
  },
  "PushAccount": {
    "type": "object",
    "required": [
      "username",
      "email",
      "id"
    ],
    "properties": {
      "username": {
        "type": "string"
      },
      "email": {
        "type": [
          "string",
          "null"
        ]
      },
      "id": {
        "type": "string"
      },
      "token": {
        "type": "string",
        "pattern": "^[0-9a-f]{40}$"
      }
    }
  },
  "PushRegistrationRequest": {
    "type": "object",
    "required": [
      "registration_id"
    ],
    "properties": {
      "registration_id": {
        "type": "string",
        "minLength": 1,
        "maxLength": 512
      },
      "name": {
        "type": [
          "string",
          "null"
        ],
        "maxLength": 255
      },
      "device_id": {
        "type": [
          "string",
          "null"
        ],
        "maxLength": 255
      },
      "active": {
        "type": [
          "boolean",
          "null"
        ]
      }
    }
  },
  "PushRegistrationDevice": {
    "type": "object",
    "required": [
      "id",
      "name",
      "active",
      "registration_id",
      "device_id",
      "date_created"
    ],
    "properties": {
      "id": {
        "type": "string"
      },
      "name": {
        "type": [
          "string",
          "null"
        ]
      },
      "active": {
        "type": "boolean"
      },
      "registration_id": {
        "type": "string"
      },
      "device_id": {
        "type": [
          "string",
          "null"
        ]
      },
      "date_created": {
        "type": "string"
      }
    }
  },
  "PushWebPushKeys": {
    "type": "object",
    "required": [
      "p256dh",
      "auth"
    ],
    "properties": {
      "p256dh": {
        "type": "string",
        "minLength": 1,
        "maxLength": 100
      },
      "auth": {
        "type": "string",
        "minLength": 1,
        "maxLength": 100
      }
    }
  },
  "PushWebPushRequest": {
    "type": "object",
    "required": [
      "endpoint",
      "keys"
    ],
    "properties": {
      "endpoint": {
        "type": "string",
        "minLength": 1,
        "maxLength": 1000
      },
      "keys": {
        "$ref": "#/components/schemas/PushWebPushKeys"
      },
      "name": {
        "type": [
          "string",
          "null"
        ],
        "maxLength": 255
      },
      "active": {
        "type": [
          "boolean",
          "null"
        ]
      }
    }
  },
  "PushWebPushDevice": {
    "type": "object",
    "required": [
      "id",
      "name",
      "active",
      "endpoint",
      "keys",
      "date_created"
    ],
    "properties": {
      "id": {
        "type": "string"
      },
      "name": {
        "type": [
          "string",
          "null"
        ]
      },
      "active": {
        "type": "boolean"
      },
      "endpoint": {
        "type": "string"
      },
      "keys": {
        "type": "object"
      },
      "date_created": {
        "type": "string"
      }
    }
  },
  "PushTokenRequest": {
    "type": "object",
    "properties": {
      "apns_device": {
        "type": [
          "string",
          "null"
        ],
        "maxLength": 64
      },
      "gcm_device": {
        "type": [
          "string",
          "null"
        ],
        "maxLength": 64
      },
      "webpush_device": {
        "type": [
          "string",
          "null"
        ],
        "maxLength": 64
      },
      "name": {
        "type": [
          "string",
          "null"
        ],
        "maxLength": 100
      },
      "count": {
        "type": [
          "integer",
          "null"
        ],
        "minimum": 1,
        "maximum": 20
      }
    }
  },
  "PushToken": {
    "type": "object",
    "required": [
      "token",
      "date_expires"
    ],
    "properties": {
      "token": {
        "type": "string",
        "pattern": "^[0-9a-f]{40}$"
      },
      "name": {
        "type": "string"
      },
      "apns_device": {
        "type": "string"
      },
      "gcm_device": {
        "type": "string"
      },
      "webpush_device": {
        "type": "string"
      },
      "date_expires": {
        "type": "string"
      }
    }
  },
  "PushTokenBatch": {
    "type": "object",
    "required": [
      "results"
    ],
    "properties": {
      "results": {
        "type": "array",
        "items": {
          "$ref": "#/components/schemas/PushToken"
        }
      }
    }
  },
  "PushTokenList": {
    "type": "object",
    "required": [
      "results"
    ],
    "properties": {
      "results": {
        "type": "array",
        "items": {
          "type": "object",
          "required": [
            "token_digest",
            "date_expires"
          ],
          "properties": {
            "token_digest": {
              "type": "string",
              "pattern": "^[0-9a-f]{64}$"
            },
            "name": {
              "type": "string"
            },
            "date_expires": {
              "type": "string"
            }
          }
        }
      }
    }
  },
  "PushKnock": {
    "type": "object",
    "required": [
      "token"
    ],
    "properties": {
      "token": {
        "type": "string",
        "minLength": 1,
        "maxLength": 200
      },
      "data": {
        "type": [
          "string",
          "null"
        ],
        "maxLength": 100
      },
      "priority": {
        "type": [
          "string",
          "null"
        ],
        "enum": [
          "high",
          "low",
          null
        ]
      }
    }
  },
  "PushKnockEcho": {
    "type": "object",
    "required": [
      "token",
      "data",
      "priority"
    ],
    "properties": {
      "token": {
        "type": "string"
      },
      "data": {
        "type": [
          "string",
          "null"
        ]
      },
      "priority": {
        "type": "string",
        "enum": [
          "high",
          "low"
        ]
      }
    }
  },
  "PushSubscriptionRequest": {
    "type": "object",
    "properties": {
      "vapid_key": {
        "type": [
          "string",
          "null"
        ],
        "pattern": "^[A-Za-z0-9_-]{87}$"
      }
    }
  },
  "PushSubscription": {
    "type": "object",
    "required": [
      "endpoint",
      "subscription"
    ],
    "properties": {
      "endpoint": {
        "type": "string"
      },
      "subscription": {
        "type": "string"
      }
    }
  }
"""#
}
