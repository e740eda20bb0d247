/// The OpenAPI 3.1 document of the REST API, served at `GET /openapi.json`: the one description
/// of every endpoint's request, responses and status codes, checked against the running server by
/// `Interop/serve/schemathesis.sh` (schemathesis) and by `OpenAPIDocumentTests`.
enum OpenAPIDocument {
    /// The document as JSON text: the rendezvous entries with the push entries (``PushOpenAPIDocument``) merged in.
    static let json = baseJSON
        .replacing("\n  \"paths\": {\n", with: "\n  \"paths\": {\n" + PushOpenAPIDocument.paths + ",\n", maxReplacements: 1)
        .replacing(
            "\n    \"schemas\": {\n",
            with: "\n    \"responses\": {\n" + responses + ",\n" + PushOpenAPIDocument.responses + "\n    },\n    \"schemas\": {\n"
                + PushOpenAPIDocument.schemas + ",\n",
            maxReplacements: 1)

    /// The rendezvous server's shared responses (members of `components.responses`), referenced as
    /// `#/components/responses/NAME`.
    static let responses = #"""
  "UnsupportedMediaType": {
    "description": "The body is not declared `Content-Type: application/json` (parameters such as `charset` allowed), or a body came without a `Content-Type` (`unsupported_media_type`).",
    "content": {
      "application/json": {
        "schema": {
          "$ref": "#/components/schemas/Error"
        }
      }
    }
  }
"""#

    /// The rendezvous server's own entries.
    static let baseJSON = #"""
{
  "openapi": "3.1.0",
  "info": {
    "title": "Kith rendezvous server (kith serve)",
    "version": "1.0.0",
    "description": "Inviso-compatible pairing by join code, plus operator endpoints. WebRTC signaling runs over a WebSocket upgrade of `GET /` (not described here; see docs/SERVER.md). Every REST endpoint is rate-limited per source address.",
    "license": {
      "name": "see the Kith repository"
    }
  },
  "servers": [
    {
      "url": "http://127.0.0.1:7460"
    }
  ],
  "paths": {
    "/": {
      "get": {
        "operationId": "banner",
        "summary": "Banner text (Inviso's health text).",
        "responses": {
          "200": {
            "description": "The server's banner.",
            "content": {
              "text/plain": {
                "schema": {
                  "type": "string"
                }
              }
            }
          }
        }
      }
    },
    "/api/rooms": {
      "post": {
        "operationId": "createRoom",
        "summary": "client1 offers a pending pairing under a join code.",
        "requestBody": {
          "required": false,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/CreateRoomRequest"
              }
            }
          }
        },
        "responses": {
          "201": {
            "description": "Created; `exp` is computed on the server's clock.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/CreateRoomResponse"
                }
              }
            }
          },
          "400": {
            "description": "The body is not a JSON object within the limits (`invalid_json`) or a member is missing or invalid (`missing_<member>`, `invalid_<member>`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "403": {
            "description": "A claimed join code (starting `kc1-`) without the `claim` it commits to (`claim_required`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "413": {
            "description": "The body is larger than 65536 bytes (`body_too_large`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "415": {
            "$ref": "#/components/responses/UnsupportedMediaType"
          },
          "429": {
            "description": "Too many requests from this source (or for this join code): `rate_limited`; retry after `Retry-After` seconds.",
            "headers": {
              "Retry-After": {
                "required": true,
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9]+$"
                }
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "500": {
            "description": "The store failed (`internal_error`); details only in the server's log.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "409": {
            "description": "A live pairing already uses this join code (`joinid_in_use`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      },
      "get": {
        "operationId": "getRoom",
        "summary": "Whether a room lives; its two device ids only to a caller naming one of them.",
        "parameters": [
          {
            "name": "roomid",
            "in": "query",
            "required": true,
            "schema": {
              "$ref": "#/components/schemas/RoomID"
            }
          },
          {
            "name": "deviceId",
            "in": "query",
            "required": false,
            "description": "One of the room's two device ids: proves membership, and the answer then names both.",
            "schema": {
              "type": "string"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The room: `{roomid}`, with `client1` and `client2` when `deviceId` is one of them.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/RoomInfo"
                }
              }
            }
          },
          "400": {
            "description": "`roomid` is absent or empty (`missing_roomid`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "404": {
            "description": "No live room of that id (`not_found`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "429": {
            "description": "Too many requests from this source (or for this join code): `rate_limited`; retry after `Retry-After` seconds.",
            "headers": {
              "Retry-After": {
                "required": true,
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9]+$"
                }
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "500": {
            "description": "The store failed (`internal_error`); details only in the server's log.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      },
      "delete": {
        "operationId": "deleteRoom",
        "summary": "Deletes a room (idempotent); members still connected get `peer_left`.",
        "requestBody": {
          "required": false,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/RoomIDBody"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "`OK` (also when the room did not exist).",
            "content": {
              "text/plain": {
                "schema": {
                  "type": "string",
                  "const": "OK"
                }
              }
            }
          },
          "400": {
            "description": "The body is not a JSON object within the limits (`invalid_json`) or a member is missing or invalid (`missing_<member>`, `invalid_<member>`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "413": {
            "description": "The body is larger than 65536 bytes (`body_too_large`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "415": {
            "$ref": "#/components/responses/UnsupportedMediaType"
          },
          "429": {
            "description": "Too many requests from this source (or for this join code): `rate_limited`; retry after `Retry-After` seconds.",
            "headers": {
              "Retry-After": {
                "required": true,
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9]+$"
                }
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "500": {
            "description": "The store failed (`internal_error`); details only in the server's log.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    },
    "/api/rooms/accept": {
      "post": {
        "operationId": "acceptRoom",
        "summary": "client2 claims a pending pairing by its join code (exactly one winner).",
        "requestBody": {
          "required": false,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/AcceptRoomRequest"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "Accepted: the new room's id.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/RoomIDBody"
                }
              }
            }
          },
          "400": {
            "description": "The body is not a JSON object within the limits (`invalid_json`) or a member is missing or invalid (`missing_<member>`, `invalid_<member>`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "413": {
            "description": "The body is larger than 65536 bytes (`body_too_large`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "415": {
            "$ref": "#/components/responses/UnsupportedMediaType"
          },
          "429": {
            "description": "Too many requests from this source (or for this join code): `rate_limited`; retry after `Retry-After` seconds.",
            "headers": {
              "Retry-After": {
                "required": true,
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9]+$"
                }
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "500": {
            "description": "The store failed (`internal_error`); details only in the server's log.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "404": {
            "description": "No live pending pairing under this code (`not_found_or_expired`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "409": {
            "description": "Another device already accepted this code (`conflict`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    },
    "/api/rooms/check": {
      "post": {
        "operationId": "checkRoom",
        "summary": "client1 asks whether its pairing was accepted.",
        "requestBody": {
          "required": false,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/CheckRoomRequest"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "Accepted: the room's id.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/RoomIDBody"
                }
              }
            }
          },
          "204": {
            "description": "Still pending."
          },
          "400": {
            "description": "The body is not a JSON object within the limits (`invalid_json`) or a member is missing or invalid (`missing_<member>`, `invalid_<member>`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "413": {
            "description": "The body is larger than 65536 bytes (`body_too_large`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "415": {
            "$ref": "#/components/responses/UnsupportedMediaType"
          },
          "429": {
            "description": "Too many requests from this source (or for this join code): `rate_limited`; retry after `Retry-After` seconds.",
            "headers": {
              "Retry-After": {
                "required": true,
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9]+$"
                }
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "500": {
            "description": "The store failed (`internal_error`); details only in the server's log.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "404": {
            "description": "No pairing of this code and client1, or it expired (`not_found_or_expired`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    },
    "/api/user/purge": {
      "post": {
        "operationId": "purge",
        "summary": "Forgets every pairing and room of these ephemeral device ids.",
        "requestBody": {
          "required": false,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/PurgeRequest"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "Purged.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PurgeResponse"
                }
              }
            }
          },
          "400": {
            "description": "Invalid body: `invalid_json`, `missing_deviceIds_or_deviceId`, `empty_deviceIds_array`, `too_many_deviceIds`, `invalid_device_ids` (with `count`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "413": {
            "description": "The body is larger than 65536 bytes (`body_too_large`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "415": {
            "$ref": "#/components/responses/UnsupportedMediaType"
          },
          "429": {
            "description": "Too many requests from this source (or for this join code): `rate_limited`; retry after `Retry-After` seconds.",
            "headers": {
              "Retry-After": {
                "required": true,
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9]+$"
                }
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "500": {
            "description": "The store failed (`internal_error`); details only in the server's log.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    },
    "/api/turn-credentials": {
      "get": {
        "operationId": "turnCredentials",
        "summary": "Short-lived TURN credentials (coturn's shared-secret scheme) for a device of a live room.",
        "parameters": [
          {
            "name": "roomid",
            "in": "query",
            "required": true,
            "schema": {
              "$ref": "#/components/schemas/RoomID"
            }
          },
          {
            "name": "deviceId",
            "in": "query",
            "required": true,
            "schema": {
              "$ref": "#/components/schemas/DeviceID"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "Credentials.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/TURNCredentials"
                }
              }
            }
          },
          "400": {
            "description": "`roomid` or `deviceId` is absent or empty (`missing_roomid`, `missing_deviceId`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "404": {
            "description": "No TURN configured, no live room of that id, or the device is not one of its two (`not_found`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "429": {
            "description": "Too many requests from this source (or for this join code): `rate_limited`; retry after `Retry-After` seconds.",
            "headers": {
              "Retry-After": {
                "required": true,
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9]+$"
                }
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "500": {
            "description": "The store failed (`internal_error`); details only in the server's log.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    },
    "/api/rooms/{roomid}": {
      "get": {
        "operationId": "retiredGetRoom",
        "summary": "Inviso's retired endpoint.",
        "parameters": [
          {
            "name": "roomid",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string",
              "pattern": "^[^/]+$"
            }
          }
        ],
        "responses": {
          "410": {
            "description": "`use_new_endpoints`.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    },
    "/api/rooms/{roomid}/accept": {
      "post": {
        "operationId": "retiredAcceptRoom",
        "summary": "Inviso's retired endpoint.",
        "parameters": [
          {
            "name": "roomid",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string",
              "pattern": "^[^/]+$"
            }
          }
        ],
        "responses": {
          "410": {
            "description": "`use_new_endpoints`.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    },
    "/health": {
      "get": {
        "operationId": "health",
        "summary": "Liveness and store reachability.",
        "responses": {
          "200": {
            "description": "Serving; the store answered.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Health"
                }
              }
            }
          },
          "503": {
            "description": "The store did not answer.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Health"
                }
              }
            }
          }
        }
      }
    },
    "/metrics": {
      "get": {
        "operationId": "metrics",
        "summary": "Prometheus text exposition.",
        "responses": {
          "200": {
            "description": "Metrics.",
            "content": {
              "text/plain": {
                "schema": {
                  "type": "string"
                }
              }
            }
          }
        }
      }
    },
    "/openapi.json": {
      "get": {
        "operationId": "openapi",
        "summary": "This document.",
        "responses": {
          "200": {
            "description": "OpenAPI 3.1.",
            "content": {
              "application/json": {
                "schema": {
                  "type": "object"
                }
              }
            }
          }
        }
      }
    }
  },
  "components": {
    "schemas": {
      "JoinCode": {
        "type": "string",
        "pattern": "^[A-Za-z0-9_-]{6,64}$",
        "description": "A join code: 6 to 64 ASCII letters, digits, '-' or '_'."
      },
      "DeviceID": {
        "type": "string",
        "pattern": "^[!-~]{1,128}$",
        "description": "An ephemeral device id: 1 to 128 visible ASCII characters."
      },
      "RoomID": {
        "type": "string",
        "pattern": "^[!-~]{1,128}$",
        "description": "A room id: 48 lowercase hex digits when this server made it; requests may name 1 to 128 visible ASCII characters."
      },
      "CreateRoomRequest": {
        "type": "object",
        "required": [
          "joinid",
          "client1",
          "expiresInSeconds"
        ],
        "properties": {
          "joinid": {
            "$ref": "#/components/schemas/JoinCode"
          },
          "client1": {
            "$ref": "#/components/schemas/DeviceID"
          },
          "claim": {
            "type": ["string", "null"],
            "maxLength": 128,
            "description": "For a claimed join code (starting `kc1-`): base64url of the 32-byte secret the code commits to. Ignored for other codes; null or absent: no claim."
          },
          "expiresInSeconds": {
            "oneOf": [
              {
                "type": "integer",
                "minimum": 1,
                "maximum": 86400
              },
              {
                "type": "string",
                "pattern": "^0*([1-9][0-9]{0,3}|[1-7][0-9]{4}|8[0-5][0-9]{3}|86[0-3][0-9]{2}|86400)$",
                "maxLength": 6
              }
            ]
          }
        }
      },
      "CreateRoomResponse": {
        "type": "object",
        "required": [
          "ok",
          "exp"
        ],
        "additionalProperties": false,
        "properties": {
          "ok": {
            "type": "boolean",
            "const": true
          },
          "exp": {
            "type": "string",
            "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z$"
          }
        }
      },
      "AcceptRoomRequest": {
        "type": "object",
        "required": [
          "joinid",
          "client2"
        ],
        "properties": {
          "joinid": {
            "$ref": "#/components/schemas/JoinCode"
          },
          "client2": {
            "$ref": "#/components/schemas/DeviceID"
          }
        }
      },
      "CheckRoomRequest": {
        "type": "object",
        "required": [
          "joinid",
          "client1"
        ],
        "properties": {
          "joinid": {
            "$ref": "#/components/schemas/JoinCode"
          },
          "client1": {
            "$ref": "#/components/schemas/DeviceID"
          }
        }
      },
      "RoomIDBody": {
        "type": "object",
        "required": [
          "roomid"
        ],
        "properties": {
          "roomid": {
            "$ref": "#/components/schemas/RoomID"
          }
        }
      },
      "RoomInfo": {
        "type": "object",
        "required": [
          "roomid"
        ],
        "additionalProperties": false,
        "properties": {
          "roomid": {
            "$ref": "#/components/schemas/RoomID"
          },
          "client1": {
            "$ref": "#/components/schemas/DeviceID"
          },
          "client2": {
            "$ref": "#/components/schemas/DeviceID"
          }
        }
      },
      "PurgeRequest": {
        "type": "object",
        "description": "An array `deviceIds` (1 to 256 device ids) wins and `deviceId` is then ignored; without an array, Inviso's legacy `deviceId` names one device.",
        "anyOf": [
          {
            "required": [
              "deviceIds"
            ],
            "properties": {
              "deviceIds": {
                "type": "array",
                "minItems": 1,
                "maxItems": 256,
                "items": {
                  "$ref": "#/components/schemas/DeviceID"
                }
              }
            }
          },
          {
            "required": [
              "deviceId"
            ],
            "properties": {
              "deviceId": {
                "$ref": "#/components/schemas/DeviceID"
              },
              "deviceIds": {
                "not": {
                  "type": "array"
                }
              }
            }
          }
        ]
      },
      "PurgeResponse": {
        "type": "object",
        "required": [
          "success",
          "deviceIdCount",
          "roomsDeleted",
          "pendingsDeleted"
        ],
        "additionalProperties": false,
        "properties": {
          "success": {
            "type": "boolean",
            "const": true
          },
          "deviceIdCount": {
            "type": "integer",
            "minimum": 1,
            "maximum": 256
          },
          "roomsDeleted": {
            "type": "integer",
            "minimum": 0
          },
          "pendingsDeleted": {
            "type": "integer",
            "minimum": 0
          }
        }
      },
      "TURNCredentials": {
        "type": "object",
        "required": [
          "username",
          "password",
          "ttl",
          "uris"
        ],
        "additionalProperties": false,
        "properties": {
          "username": {
            "type": "string",
            "description": "`<expiry seconds>:<room id>`"
          },
          "password": {
            "type": "string",
            "description": "base64(HMAC-SHA1(secret, username))"
          },
          "ttl": {
            "type": "integer",
            "minimum": 1,
            "maximum": 86400
          },
          "uris": {
            "type": "array",
            "items": {
              "type": "string"
            }
          }
        }
      },
      "Health": {
        "type": "object",
        "required": [
          "status",
          "store",
          "connections"
        ],
        "additionalProperties": false,
        "properties": {
          "status": {
            "type": "string",
            "enum": [
              "ok",
              "unavailable"
            ]
          },
          "store": {
            "type": "string",
            "enum": [
              "reachable",
              "unreachable"
            ]
          },
          "connections": {
            "type": "integer",
            "minimum": 0
          }
        }
      },
      "Error": {
        "type": "object",
        "required": [
          "error"
        ],
        "additionalProperties": false,
        "properties": {
          "error": {
            "type": "string"
          },
          "details": {
            "type": "string"
          },
          "count": {
            "type": "integer",
            "minimum": 0
          }
        }
      }
    }
  }
}
"""#
}
