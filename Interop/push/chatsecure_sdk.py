"""An independent model of how the ChatSecure-Push iOS SDK decodes what a push server sends it.

Written from the rules of the SDK's `Deserializer.swift` (ChatSecure/ChatSecure-Push-iOS 128b0e6, summarised with
line numbers in Tests/Vectors/real-clients/real-clients.md); no SDK code is reproduced. Each function raises `SDKRejects`
where the SDK would throw, and answers what the SDK would keep where it would not.
"""
import json
from datetime import datetime

DATE_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"  # the SDK's yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'


class SDKRejects(Exception):
    """The SDK would throw (registration, listing or push handling fails in the app)."""


def _object(data):
    value = json.loads(data) if isinstance(data, (bytes, str)) else data
    if not isinstance(value, dict):
        raise SDKRejects("not a JSON object")
    return value


def _date(text):
    # Six fractional digits exactly, as the SDK's DateFormatter requires.
    if not isinstance(text, str) or len(text.split(".")[-1]) != 7:
        raise SDKRejects(f"date {text!r} is not yyyy-MM-ddTHH:mm:ss.SSSSSSZ")
    try:
        return datetime.strptime(text, DATE_FORMAT)
    except ValueError as error:
        raise SDKRejects(f"date {text!r}: {error}") from error


def account(data):
    """An account answer: the whole object must be [String: String] and hold `username`."""
    value = _object(data)
    if not all(isinstance(item, str) for item in value.values()):
        raise SDKRejects(f"account is not [String: String]: {value}")
    if "username" not in value:
        raise SDKRejects("account without username")
    return {"username": value["username"], "token": value.get("token"), "email": value.get("email")}


def device(data):
    """A device answer: `registration_id` and `date_created` as strings; name, device_id and id kept when strings."""
    value = _object(data)
    if not isinstance(value.get("registration_id"), str):
        raise SDKRejects("device without registration_id")
    created = _date(value.get("date_created"))
    keep = {key: value[key] for key in ("name", "device_id", "id") if isinstance(value.get(key), str)}
    return dict(keep, registration_id=value["registration_id"], date_created=created)


def token(value):
    """A token object: `token` a string and `apns_device` or `gcm_device` a string."""
    value = _object(value)
    if not isinstance(value.get("token"), str):
        raise SDKRejects(f"token object without token: {value}")
    expires = _date(value["date_expires"]) if isinstance(value.get("date_expires"), str) else None
    for field, kind in (("apns_device", "iOS"), ("gcm_device", "android")):
        if isinstance(value.get(field), str):
            return {"token": value["token"], "kind": kind, "device": value[field], "expires": expires,
                    "name": value.get("name") if isinstance(value.get("name"), str) else None}
    raise SDKRejects(f"token object without apns_device or gcm_device: {value}")


def tokens(data):
    """A token list: `{"results": [token, …]}`; one entry the SDK cannot decode fails the whole list."""
    value = _object(data)
    results = value.get("results")
    if not isinstance(results, list) or not all(isinstance(item, dict) for item in results):
        raise SDKRejects("token list without a results array of objects")
    return [token(item) for item in results]


def message_from_server(data):
    """A knock answer: `token` a string; `data` kept when an object."""
    value = _object(data)
    if not isinstance(value.get("token"), str):
        raise SDKRejects("knock answer without token")
    return {"token": value["token"], "data": value.get("data") if isinstance(value.get("data"), dict) else None}


def message_from_push(user_info):
    """An incoming push (the app's userInfo): aps → alert → message, objects all, with `token` a string."""
    value = _object(user_info)
    aps = value.get("aps")
    if not isinstance(aps, dict):
        raise SDKRejects("push without aps object")
    alert = aps.get("alert")
    if not isinstance(alert, dict):
        raise SDKRejects("push without aps.alert object")
    message = alert.get("message")
    if not isinstance(message, dict):
        raise SDKRejects("push without aps.alert.message object")
    if not isinstance(message.get("token"), str):
        raise SDKRejects("push message without token")
    return {"token": message["token"], "data": message.get("data") if isinstance(message.get("data"), dict) else None}
