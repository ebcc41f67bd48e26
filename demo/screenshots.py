"""Screenshots of Home Assistant's real frontend with o1: saved under docs/screenshots/ (script/screenshots).

Starts the o1 server and `hass` like the demo (demo/workspace.py), onboards HA, then drives headless Chromium
(Debian's `chromium`) over the Chrome DevTools Protocol: the browser gets HA's own login tokens in its
localStorage ("hassTokens", as the frontend stores them after a login) and opens

1. config-flow.png: Settings > Devices & services > Add integration > o1 (the config flow's form);
2. integration.png: the o1 integration's page after the flow (its server entry and "o1 default" agent);
3. voice-assistants.png: Settings > Voice assistants > the "o1" assistant: o1's agent, speech-to-text and
   text-to-speech;
4. assist.png: the Assist dialog after a typed question answered by o1 (the embedded model).
Clicks at fixed points are for a 1280x800 page of HA 2026.10's frontend.

Every picture is HA's real UI as rendered; nothing is drawn. Run with the HA environment's Python.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent))

from assist import add_integrations, create_pipeline, find_engines  # noqa: E402
from ha_api import HAError, HomeAssistantREST, HomeAssistantWS, wait_for  # noqa: E402
from processes import ManagedProcess, free_ports  # noqa: E402
from progress import log  # noqa: E402
from workspace import Workspace, liveness_check, o1_server_healthy  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
WIDTH, HEIGHT = 1280, 800
RENDER_SECONDS = 6.0  # the frontend loads its panels lazily: time to settle before a picture
CHROMIUM_FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-default-apps", "--disable-extensions",
                  "--disable-sync", "--no-first-run", "--mute-audio", "--hide-scrollbars",
                  f"--window-size={WIDTH},{HEIGHT}"]


class Browser:
    """One Chromium page driven over the DevTools protocol (a WebSocket of JSON commands)."""

    def __init__(self, session: aiohttp.ClientSession, port: int) -> None:
        self.session, self.port = session, port
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.next_id = 0

    async def connect(self) -> None:
        """Attach to the first page target of the browser."""
        async def page_url() -> str | None:
            try:
                async with self.session.get(f"http://127.0.0.1:{self.port}/json/list") as resp:
                    pages = [t for t in await resp.json() if t.get("type") == "page"]
            except aiohttp.ClientError:
                return None
            return pages[0]["webSocketDebuggerUrl"] if pages else None

        url = await wait_for(page_url, "Chromium's DevTools endpoint", limit=60)
        self.ws = await self.session.ws_connect(url, max_msg_size=64 << 20)
        await self.call("Page.enable")
        await self.call("Emulation.setDeviceMetricsOverride", width=WIDTH, height=HEIGHT, deviceScaleFactor=1,
                        mobile=False)

    async def call(self, method: str, **params: Any) -> dict[str, Any]:
        """Send one command and return its result (events in between are skipped). Raises on an error."""
        assert self.ws is not None
        self.next_id += 1
        await self.ws.send_json({"id": self.next_id, "method": method, "params": params})
        async with asyncio.timeout(60):
            while True:
                message = json.loads((await self.ws.receive()).data)
                if message.get("id") == self.next_id:
                    if "error" in message:
                        raise HAError(f"{method}: {message['error']}")
                    return message.get("result", {})

    async def goto(self, url: str) -> None:
        """Open a URL and give the frontend time to render."""
        await self.call("Page.navigate", url=url)
        await asyncio.sleep(RENDER_SECONDS)

    async def evaluate(self, expression: str) -> Any:
        """Run JavaScript in the page and return its value."""
        result = await self.call("Runtime.evaluate", expression=expression, awaitPromise=True, returnByValue=True)
        return result.get("result", {}).get("value")

    async def click(self, text: str = "", label: str = "") -> bool:
        """Click the first button (through every shadow root) whose text or aria-label/label is given."""
        found = await self.evaluate(f"""(() => {{
          const stack = [document];
          while (stack.length) {{
            const node = stack.pop();
            if (node.nodeType === 1) {{
              const name = node.tagName.toLowerCase();
              const isButton = name.includes("button") || node.getAttribute("role") === "button";
              const own = (node.textContent || "").trim();
              const aria = node.getAttribute("aria-label") || node.getAttribute("label") || "";
              if (isButton && (({json.dumps(text)} && own === {json.dumps(text)}) ||
                               ({json.dumps(label)} && aria === {json.dumps(label)}))) {{
                node.click();
                return true;
              }}
            }}
            if (node.shadowRoot) stack.push(node.shadowRoot);
            for (const child of (node.children || [])) stack.push(child);
          }}
          return false;
        }})()""")
        log(f"click {text or label!r}: {'done' if found else 'not found'}")
        return bool(found)

    async def mouse_click(self, x: int, y: int) -> None:
        """Click the left mouse button at a point of the page (CSS pixels)."""
        for kind in ("mousePressed", "mouseReleased"):
            await self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)

    async def key(self, key: str, text: str = "") -> None:
        """Press and release one key (with its text for printable keys)."""
        code = {"Enter": 13}.get(key, ord(key.upper()) if len(key) == 1 else 0)
        common = {"key": key, "windowsVirtualKeyCode": code, "nativeVirtualKeyCode": code}
        await self.call("Input.dispatchKeyEvent", type="keyDown", text=text, **common)
        await self.call("Input.dispatchKeyEvent", type="keyUp", **common)

    async def screenshot(self, path: Path) -> None:
        """Save the page as a PNG."""
        data = await self.call("Page.captureScreenshot", format="png")
        path.write_bytes(base64.b64decode(data["data"]))
        log(f"saved {path.relative_to(ROOT)} ({path.stat().st_size} bytes)")


async def login_tokens(rest: HomeAssistantREST, password: str) -> dict[str, Any]:
    """Log the owner in through HA's login flow and return the token set the frontend keeps in localStorage."""
    flow = await rest.request("POST", "/auth/login_flow", {
        "client_id": rest.client_id, "handler": ["homeassistant", None],
        "redirect_uri": f"{rest.base_url}/?auth_callback=1"}, auth=False)
    done = await rest.request("POST", f"/auth/login_flow/{flow['flow_id']}", {
        "username": "demo", "password": password, "client_id": rest.client_id}, auth=False)
    form = {"grant_type": "authorization_code", "code": done["result"], "client_id": rest.client_id}
    async with rest.session.post(rest.base_url + "/auth/token", data=form) as resp:
        tokens = await resp.json()
    return {**tokens, "hassUrl": rest.base_url, "clientId": rest.client_id,
            "expires": int(time.time() * 1000) + tokens["expires_in"] * 1000}


async def run(opts: argparse.Namespace, ws: Workspace, out: Path) -> None:
    """Start everything, take the four pictures."""
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=120)) as session:
        rest = HomeAssistantREST(session, ws.ha_url)
        server = ws.start_o1_server(opts.server, [])
        hass = ws.start_hass(opts.hass, ROOT / "custom_components" / "o1", None)
        alive = liveness_check(server, hass)
        await wait_for(lambda: o1_server_healthy(session, ws), "the o1 server", opts.startup_timeout, alive=alive)
        await wait_for(rest.is_up, "Home Assistant", opts.startup_timeout, alive=alive)
        await rest.onboard(ws.ha_password)
        tokens = await login_tokens(rest, ws.ha_password)
        async with HomeAssistantWS(rest) as hass_ws:
            # configuration.yaml moved HA's HTTP port: keep it, or the frontend asks to confirm or revert.
            try:
                await hass_ws.command("http/config/promote")
            except HAError as err:
                log(f"no HTTP configuration to confirm ({err})")

        port = free_ports(1)[0]
        chromium = ws._start(ManagedProcess("chromium", [
            opts.chromium, *CHROMIUM_FLAGS, f"--remote-debugging-port={port}",
            f"--user-data-dir={ws.root / 'chromium'}", "about:blank"], ws.root / "chromium.log"))
        browser = Browser(session, port)
        await browser.connect()
        await browser.goto(ws.ha_url + "/")
        await browser.evaluate(f"localStorage.setItem('hassTokens', {json.dumps(json.dumps(tokens))}); true")
        chromium.ensure_running()

        # 1. The config flow, opened the way "Add integration > o1" opens it.
        await browser.goto(ws.ha_url + "/config/integrations/dashboard/add?domain=o1")
        await browser.click(text="OK")  # "Do you want to set up o1?"
        await asyncio.sleep(RENDER_SECONDS)
        await browser.screenshot(out / "config-flow.png")

        # 2. The integration's page once the server is added (the flow's API, as the dialog would submit it).
        async with HomeAssistantWS(rest) as hass_ws:
            await add_integrations(rest, ws.wyoming_port, ws.o1_url, ws.o1_token)
            engines = await find_engines(hass_ws)
            pipeline_id = await create_pipeline(hass_ws, engines)
            await hass_ws.command("assist_pipeline/pipeline/update", pipeline_id=pipeline_id, name="o1",
                                  language="en", stt_engine=engines.stt, stt_language=engines.stt_language,
                                  conversation_engine=engines.conversation, conversation_language="en",
                                  tts_engine=engines.tts, tts_language=engines.tts_language,
                                  tts_voice=engines.tts_voice, wake_word_entity=None, wake_word_id=None)
            await hass_ws.command("assist_pipeline/pipeline/set_preferred", pipeline_id=pipeline_id)
        await browser.goto(ws.ha_url + "/config/integrations/integration/o1")
        await browser.screenshot(out / "integration.png")

        # 3. Settings > Voice assistants: the assistant answered by o1.
        await browser.goto(ws.ha_url + "/config/voice-assistants/assistants")
        await browser.mouse_click(392, 232)  # the "o1" assistant of the list: its settings dialog
        await asyncio.sleep(RENDER_SECONDS)
        await browser.screenshot(out / "voice-assistants.png")

        # 4. The Assist dialog ("a" on a dashboard), a typed question, o1's answer.
        await browser.goto(ws.ha_url + "/lovelace/0")
        await browser.mouse_click(WIDTH - 84, 28)  # the toolbar's Assist button
        await asyncio.sleep(3)
        await browser.call("Input.insertText", text=opts.question)
        await browser.key("Enter")
        await asyncio.sleep(opts.answer_seconds)
        await browser.screenshot(out / "assist.png")
        alive()


def main() -> int:
    """Parse the options, run in a temporary workspace, stop everything."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", required=True, help="the o1-server command (script/o1-server)")
    parser.add_argument("--hass", required=True, help="the hass executable of the HA environment")
    parser.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument("--question", default="What is 2 + 2?")
    parser.add_argument("--answer-seconds", type=float, default=15.0,
                        help="seconds to let the embedded model answer before the last picture")
    parser.add_argument("--startup-timeout", type=float, default=300.0)
    opts = parser.parse_args()
    opts.out.mkdir(parents=True, exist_ok=True)
    root = Path(tempfile.mkdtemp(prefix="o1-screenshots-"))
    ws = Workspace(root)
    try:
        asyncio.run(run(opts, ws, opts.out))
    except (HAError, TimeoutError, RuntimeError) as err:
        log(f"failed: {err}; logs in {root}")
        ws.stop_all()
        return 1
    ws.stop_all()
    shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
