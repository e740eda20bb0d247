#!/usr/bin/env python3
"""The invite page of `kith serve` (docs/invites.md, "The invite page") in a real headless browser: Debian's chromium
driven through chromium-driver by Selenium. Invites are made here in Python (Interop/invites/invite_vectors.py's
independent codec and coincurve), not by Kith. Checks: a Kith-style invite and a Convos-format invite render their
fields, an expired invite says so, a malformed code gets the 400 page, a script injected through the name or the
description does not run. Saves a screenshot to .build/invite-page.png. Loopback only."""
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

import coincurve
from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "invites"))
import invite_vectors as iv  # noqa: E402

KEY = bytes.fromhex("6b911fd37cdf5c81d4c0adb1ab7fa822ed253ab0ad9aa18d77257c88b29b718e")
INJECTED_NAME = "</h1><script>document.title='pwned';window.pwned=1;alert('name')</script><img src=x onerror=\"window.pwned=2\">"
INJECTED_DESCRIPTION = "\"'><script>window.pwned=3;alert('description')</script><svg onload=\"window.pwned=4\">"


def expect(condition, message):
    if not condition:
        raise SystemExit(f"FAILED: {message}")


def invite(fields, creator=None, nonce=0, compress=False):
    """A signed invite code; `creator` (32 bytes) replaces the XMTP inbox id, as a Kith invite names a feed id."""
    priv = coincurve.PrivateKey(KEY)
    pub = priv.public_key.format(compressed=False)
    inbox = creator if creator is not None else iv.inbox_id(pub, nonce)
    token = iv.seal_token(KEY, inbox.hex(), "0123456789abcdef0123456789abcdef", iv.TOKEN_NONCE)
    payload = iv.payload_bytes(dict(fields, token=token, inbox=inbox))
    signature = priv.sign_recoverable(payload, hasher=lambda m: iv.hashlib.sha256(m).digest())
    signed = iv.field_bytes(1, payload) + iv.field_bytes(2, signature)
    return iv.slug(iv.frame(signed, compress)), "0x" + iv.address(pub).hex()


def status_of(url):
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, dict(response.headers)
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers)


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=900,1100",
                     "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"):
        options.add_argument(argument)
    service = Service(executable_path=os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    return webdriver.Chrome(service=service, options=options)


def no_alert(driver):
    try:
        driver.switch_to.alert
        return False
    except NoAlertPresentException:
        return True


def text(driver, element_id):
    return driver.find_element(By.ID, element_id).text


def main():
    kith = os.environ["KITH"]
    now = int(time.time())
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, KITH_LOG_LEVEL="error")
        server = subprocess.Popen([kith, "--home", home, "serve", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True, env=env)
        driver = None
        try:
            line = server.stdout.readline()
            match = re.match(r"kith serve: listening on http://127\.0\.0\.1:(\d+)", line.strip())
            expect(match, f"unexpected first line {line!r}")
            base = f"http://127.0.0.1:{match.group(1)}"
            driver = browser()

            # A Kith-style invite: the creator id is a feed id, so the signature recovers without an XMTP binding.
            kith_code, signer = invite({"tag": "Gard3nClub", "name": "Garden club", "description": "Tomatoes & friends",
                                        "imageURL": "https://tracker.example/pixel.png", "expiresAtUnix": now + 3600,
                                        "expiresAfterUse": True, "emoji": "🍅"}, creator=bytes(range(32)))
            driver.get(f"{base}/i/{kith_code}")
            expect(text(driver, "name") == "Garden club", f"kith name: {text(driver, 'name')!r}")
            expect(text(driver, "description") == "Tomatoes & friends", "kith description")
            expect(text(driver, "emoji") == "🍅", "kith emoji")
            expect(text(driver, "expiry").startswith("expires at "), f"kith expiry: {text(driver, 'expiry')!r}")
            expect("single use" in text(driver, "use"), "kith single use")
            expect("recovers" in text(driver, "signature") and signer in text(driver, "signature"), f"kith signer: {text(driver, 'signature')!r}")
            expect("does not load" in text(driver, "image"), "the image must be named, not loaded")
            expect(driver.find_element(By.ID, "open").get_attribute("href") == f"kith://invite/{kith_code}", "open-in-Kith link")
            expect(text(driver, "command") == f"kith invite accept 'kith://invite/{kith_code}'", "command line")
            expect(not driver.find_elements(By.TAG_NAME, "img") and not driver.find_elements(By.TAG_NAME, "script"), "no img, no script")
            os.makedirs(".build", exist_ok=True)
            driver.save_screenshot(".build/invite-page.png")
            status, headers = status_of(f"{base}/i/{kith_code}")
            policy = headers.get("Content-Security-Policy", "")
            expect(status == 200 and policy.startswith("default-src 'none'") and "script-src 'none'" in policy, f"headers: {headers}")

            # A Convos-format invite (XMTP inbox id of the signer, nonce 1, compressed), through Convos' URL form.
            convos_code, convos_signer = invite({"tag": "Kx7pQ2mZ9a", "name": "Book club", "description": "",
                                                 "expiresAtUnix": now + 86400, "emoji": "🎭"}, nonce=1)
            driver.get(f"{base}/v2?i={convos_code}")
            expect(text(driver, "name") == "Book club", "convos name")
            expect(text(driver, "emoji") == "🎭", "convos emoji")
            expect("verifies" in text(driver, "signature") and convos_signer in text(driver, "signature") and "nonce 1" in text(driver, "signature"),
                   f"convos signature: {text(driver, 'signature')!r}")

            expired_code, _ = invite({"tag": "Expired001", "name": "Old party", "expiresAtUnix": now - 60})
            driver.get(f"{base}/i/{expired_code}")
            expect(text(driver, "expiry").startswith("expired at "), f"expired: {text(driver, 'expiry')!r}")

            driver.get(f"{base}/i/{'A' * 80}")
            expect(driver.title == "Not a valid invite" and "not a readable invite" in text(driver, "reason"), f"malformed: {driver.title!r}")
            expect(status_of(f"{base}/i/{'A' * 80}")[0] == 400, "malformed code must answer 400")
            expect(status_of(f"{base}/i/short")[0] == 400, "short code must answer 400")

            injected_code, _ = invite({"tag": "Inj3ct1on0", "name": INJECTED_NAME, "description": INJECTED_DESCRIPTION})
            driver.get(f"{base}/i/{injected_code}")
            time.sleep(0.5)
            expect(no_alert(driver), "an injected alert ran")
            expect(driver.title == "Invite: " + INJECTED_NAME, f"injected script changed the title: {driver.title!r}")
            expect(driver.execute_script("return typeof window.pwned") == "undefined", "injected script set window.pwned")
            expect(text(driver, "name") == INJECTED_NAME, f"the name must show as text: {text(driver, 'name')!r}")
            expect(text(driver, "description") == INJECTED_DESCRIPTION, "the description must show as text")
            expect(not driver.find_elements(By.TAG_NAME, "img") and not driver.find_elements(By.TAG_NAME, "svg"), "injected elements exist")
        finally:
            if driver is not None:
                driver.quit()
            server.terminate()
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
    print("invite page ok: Kith and Convos invites render, expired and malformed handled, injected scripts inert; screenshot .build/invite-page.png")


if __name__ == "__main__":
    main()
