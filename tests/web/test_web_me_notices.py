"""My games' Account section: the checkbox "E-mail me when it is my turn" shows the account's
notify_email and changes it at once (checked again after a reload)."""

from __future__ import annotations

import secrets

from browser_helpers import BODY, poll

PASSWORD = "correct horse battery"


def test_the_notices_checkbox_turns_e_mail_notices_off_and_on(browser, server):
    context = browser.new_context()
    context.set_default_timeout(20_000)
    try:
        page = context.new_page()
        page.goto(f"{server}/signin")
        page.get_by_label("Name").fill("ntc-" + secrets.token_hex(4))
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Create account", exact=True).click()
        page.wait_for_url(lambda url: "/signin" not in url)
        page.goto(f"{server}/me")
        poll(page, f"{BODY}.ready === 'true'")
        box = page.get_by_label("E-mail me when it is my turn")
        assert box.is_checked()
        box.uncheck()
        poll(page, "document.getElementById('message').textContent.includes('off')")
        assert page.request.get(f"{server}/api/me").json()["notify_email"] is False
        page.reload()
        poll(page, f"{BODY}.ready === 'true'")
        assert not box.is_checked()
        box.check()
        poll(page, "document.getElementById('message').textContent.includes('on')")
        assert page.request.get(f"{server}/api/me").json()["notify_email"] is True
    finally:
        context.close()
