#!/usr/bin/python3
"""The web viewer in a real browser: headless chromium driven by selenium.

    web_browser.py STACKPLAY TABLE SCREENSHOT_DIR

Starts `STACKPLAY --serve --port 0 --table TABLE` on loopback, then uses the
page as a person would, in a window 1280 px wide:
  - move generation: draws a board by clicking cells, picks a piece and an
    algorithm, presses Play, waits for the animation to finish and checks the
    count shown, and the five algorithms' counts side by side, against the
    JSON API; the shaft preset shows convolution-seed's misses (11 against 17);
    clicking a placement shows its inputs; while the animation plays, the
    placements found so far grow (the answer is not shown at the start);
    the 180-degree box gives placements whose inputs turn 180 (f); "Ask the
    bot" shows the decision /api/decide makes, and the API's error as text;
  - table explorer: the value shown for a known stack equals the table's,
    the length chart is drawn (with the games and seed asked), and clicking
    the best placement moves there;
  - replay: the default game (the first Load) has moves, a game without one
    says why, a seed of "abc" is refused, a lookahead policy plays, and a
    seeded real game loads and steps frame by frame;
  - at a window 400 px wide, no view is wider than the window;
  - a server without a table: the explorer's controls are hidden and the
    replay's default is the real game.
Takes a screenshot of each view into SCREENSHOT_DIR at 1280 px and at 400 px
(scripts/web-screenshots puts them in results/). Fails on any JavaScript
error in the console.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

failures = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what, flush=True)
    if not condition:
        failures.append(what)


def start_server(stackplay, table=None):
    table_flags = ["--table", table] if table else []
    server = subprocess.Popen([stackplay, "--serve", "--port", "0", *table_flags],
                              stderr=subprocess.PIPE, text=True)
    line = server.stderr.readline()
    match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    if not match:
        server.kill()
        sys.exit("the server did not start: " + line)
    return server, f"http://127.0.0.1:{match.group(1)}"


def api(url, path, **parameters):
    with urllib.request.urlopen(f"{url}{path}?{urllib.parse.urlencode(parameters)}", timeout=30) as answer:
        return json.load(answer)


def api_error(url, path, **parameters):
    """The error text of a request the API refuses (400)."""
    try:
        api(url, path, **parameters)
    except urllib.error.HTTPError as refused:
        return json.load(refused).get("error")
    return None


def start_browser(profile):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-extensions", "--no-first-run",
                 "--window-size=1280,1000", f"--user-data-dir={profile}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def text_of(driver, element_id):
    return driver.find_element(By.ID, element_id).text.strip()


def wait_text(driver, element_id, predicate, seconds=30):
    WebDriverWait(driver, seconds).until(lambda d: predicate(text_of(d, element_id)))
    return text_of(driver, element_id)


def count_of(text):
    """The number a count shows ("12 found so far" -> 12)."""
    match = re.match(r"\s*(\d+)", text)
    return int(match.group(1)) if match else None


def type_into(driver, **values):
    """Each field (by id) emptied and typed into, as a person would."""
    for element_id, value in values.items():
        box = driver.find_element(By.ID, element_id.replace("_", "-"))
        box.clear()
        box.send_keys(value)


def set_speed(driver, value):
    driver.execute_script("const s = document.getElementById('moves-speed'); s.value = arguments[0];"
                          "s.dispatchEvent(new Event('input'));", value)


def click_cells(driver, cells):
    for x, y in cells:
        driver.find_element(By.CSS_SELECTOR, f'#moves-board .cell[data-x="{x}"][data-y="{y}"]').click()


def board_text(cells, width=10, height=20):
    rows = [["."] * width for _ in range(height)]
    for x, y in cells:
        rows[height - 1 - y][x] = "#"
    return "/".join("".join(row) for row in rows)


def placement_inputs(driver):
    return [code.text for code in driver.find_elements(By.CSS_SELECTOR, "#moves-placements li code")]


def emulate_width(driver, width, height):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})


def screenshot(driver, path, width=1280, most_height=1600, then=None):
    """The page from its top, as tall as it is up to most_height; then the
    window as it was (or emulated at `then`, (width, height))."""
    driver.execute_script("window.scrollTo(0, 0)")
    tall = driver.execute_script("return document.documentElement.scrollHeight")
    emulate_width(driver, width, min(tall, most_height))
    time.sleep(0.2)
    driver.save_screenshot(path)
    if then:
        emulate_width(driver, *then)
    else:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def javascript_errors(driver):
    """Console errors other than the browser's own note of a 4xx answer."""
    return [entry["message"] for entry in driver.get_log("browser")
            if entry["level"] == "SEVERE" and "Failed to load resource" not in entry["message"]]


def moves_view(driver, url, shots):
    driver.find_element(By.ID, "tab-moves").click()
    # The bottom row full but for column 2, and a cell above column 3:
    # drawn by clicking, as a person would.
    drawn = [(x, 0) for x in range(10) if x != 2] + [(3, 2), (4, 2)]
    click_cells(driver, drawn)
    board = board_text(drawn)
    Select(driver.find_element(By.ID, "moves-piece")).select_by_visible_text("T")
    Select(driver.find_element(By.ID, "moves-algorithm")).select_by_value("bfs")
    set_speed(driver, 100)
    driver.find_element(By.ID, "moves-play").click()
    wait_text(driver, "moves-status", lambda text: text == "done", 60)
    expected = {algorithm: api(url, "/api/moves", board=board, piece="T", algorithm=algorithm, events=0)
                for algorithm in ("harddrop", "quick", "bfs", "convolution", "convolution-seed")}
    check(text_of(driver, "moves-count") == str(len(expected["bfs"]["placements"])),
          f"bfs count shown {text_of(driver, 'moves-count')} = the API's {len(expected['bfs']['placements'])}")
    WebDriverWait(driver, 30).until(lambda d: all(
        d.find_element(By.CSS_SELECTOR, f'#moves-compare tr[data-algorithm="{a}"] td.count').text.strip()
        for a in expected))
    for algorithm, answer in expected.items():
        shown = driver.find_element(By.CSS_SELECTOR, f'#moves-compare tr[data-algorithm="{algorithm}"] td.count').text
        check(shown.strip() == str(answer["counts"]["placements"]),
              f"{algorithm} count side by side {shown.strip()} = the API's {answer['counts']['placements']}")
    times = {a: driver.find_element(By.CSS_SELECTOR, f'#moves-compare tr[data-algorithm="{a}"] td.time').text
             for a in expected}
    check(all(re.fullmatch(r"\d+(\.\d+)? ms", t) for t in times.values()),
          f"each algorithm's search time beside its counts: {times}")
    placements = driver.find_elements(By.CSS_SELECTOR, "#moves-placements li")
    check(len(placements) == len(expected["bfs"]["placements"]), "one list item per placement")
    words = [li.text for li in placements]
    check(all(re.match(r"rotation [0R2L] · columns? \d", text) for text in words),
          f"the placements are worded 'rotation L · columns a–b, rows c–d': {words[:2]}")
    # A cell of a T-spin mini and of a full T-spin shows both colours (a
    # placement's `spins`: every way it is reached).
    spun = {spin: {tuple(c) for p in expected["bfs"]["placements"] if spin in p["spins"] for c in p["cells"]}
            for spin in ("mini", "full")}
    both = {(int(c.get_attribute("data-x")), int(c.get_attribute("data-y")))
            for c in driver.find_elements(By.CSS_SELECTOR, "#moves-board .cell.f-both")}
    check(both and both == spun["mini"] & spun["full"], f"cells of both a mini and a full T-spin show both: {both}")
    placements[-1].click()
    last = expected["bfs"]["placements"][-1]
    inputs = last["inputs"]
    check(inputs in text_of(driver, "moves-inputs"), f"clicking a placement shows its inputs {inputs}")
    cells = " ".join(f"({x},{y})" for x, y in sorted(last["cells"], key=lambda c: (c[1], c[0])))
    check(cells in text_of(driver, "moves-inputs"), f"and its cells as (column, row): {cells}")
    ask_the_bot(driver, url, board)
    screenshot(driver, os.path.join(shots, "web-moves.png"))
    # A full row is no board of the real game: the API's error, as text.
    click_cells(driver, [(2, 0)])
    driver.find_element(By.ID, "bot-ask").click()
    error = wait_text(driver, "bot-error", lambda text: text)
    refused = api_error(url, "/api/decide", board=board_text(drawn + [(2, 0)]), piece="T", next="IO")
    check(error == refused and not driver.find_elements(By.CSS_SELECTOR, "#moves-board .cell.bot"),
          f"the bot's refusal is shown as the API says it: '{error}'")
    check("row 0 " in error, f"the bot's error counts rows as the page does, the bottom one 0: '{error}'")

    driver.find_element(By.ID, "moves-preset-shaft").click()
    driver.find_element(By.ID, "moves-play").click()
    wait_text(driver, "moves-status", lambda text: text == "done", 60)
    counts = {}
    for algorithm in ("bfs", "convolution", "convolution-seed"):
        counts[algorithm] = WebDriverWait(driver, 30).until(lambda d: d.find_element(
            By.CSS_SELECTOR, f'#moves-compare tr[data-algorithm="{algorithm}"] td.count').text.strip())
    check(counts == {"bfs": "17", "convolution": "17", "convolution-seed": "11"},
          f"the shaft preset: {counts} (bfs 17, convolution 17, convolution-seed 11)")
    shaft = api(url, "/api/moves", board="/".join(["###....###"] * 19 + ["###.######"]), piece="I", events=0)
    kicked = [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#moves-placements li") if " kick " in li.text]
    check(len(kicked) == sum(p["kick"] > 0 for p in shaft["placements"]) > 0,
          f"the shaft's placements that need a kick say which: {kicked[:2]}")
    screenshot(driver, os.path.join(shots, "web-moves-shaft.png"))
    animation_reveals(driver)
    rotate_180(driver, url)


def ask_the_bot(driver, url, board):
    """The bot's decision on the drawn board, as /api/decide makes it."""
    type_into(driver, bot_next="IO")
    driver.find_element(By.ID, "bot-ask").click()
    WebDriverWait(driver, 30).until(lambda d: d.find_elements(By.ID, "bot-inputs"))
    decision = api(url, "/api/decide", board=board, piece="T", next="IO")
    shown = text_of(driver, "bot-inputs")
    check(shown == decision["best"]["inputs"], f"the bot's inputs shown '{shown}' = /api/decide's "
          f"'{decision['best']['inputs']}'")
    marked = {(int(c.get_attribute("data-x")), int(c.get_attribute("data-y")))
              for c in driver.find_elements(By.CSS_SELECTOR, "#moves-board .cell.bot")}
    check(marked == {tuple(c) for c in decision["best"]["cells"]}, f"the bot's cells are marked on the board: {marked}")
    check(len(driver.find_elements(By.CSS_SELECTOR, "#bot-result .bot-plan li")) == len(decision["plan"]),
          f"its plan lists the {len(decision['plan'])} known pieces")
    said = text_of(driver, "bot-result")
    check("rotation " in said and "SRS state" not in said and "centre" not in said and not re.search(r"\bx \d", said),
          f"the bot words a placement as the moves list does: '{said[:120]}'")
    titles = {e.text.split(" ", 1)[-1]: e.get_attribute("title")
              for e in driver.find_elements(By.CSS_SELECTOR, "#bot-result .explained")}
    check(titles.get("leaves", "").startswith("leaves: ") and titles.get("first placements", "").startswith(
        "first placements: "), f"leaves and first placements are explained: {titles}")


def animation_reveals(driver):
    """On a low board the animation lists the placements as it finds them:
    the count shown grows while it plays, from below the final count."""
    driver.find_element(By.ID, "moves-clear").click()
    type_into(driver, moves_width="10", moves_height="6")
    driver.find_element(By.ID, "moves-resize").click()
    Select(driver.find_element(By.ID, "moves-piece")).select_by_visible_text("T")
    set_speed(driver, 55)  # 158 events/s
    driver.find_element(By.ID, "moves-play").click()
    # Sampled in the page every 150 ms until the animation ends.
    samples = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const counts = [];
        const timer = setInterval(() => {
          const status = document.getElementById('moves-status').textContent;
          counts.push([status, document.getElementById('moves-count').textContent,
                       document.querySelectorAll('#moves-placements li').length]);
          if (status === 'done' || counts.length > 150) { clearInterval(timer); done(counts); }
        }, 150);""")
    playing = [(count_of(text), items) for status, text, items in samples if status == "playing"]
    final = count_of(samples[-1][1])
    rises = sum(1 for a, b in zip(playing, playing[1:]) if b[0] > a[0])
    check(samples[-1][0] == "done" and len(playing) >= 3, f"the animation played ({len(playing)} samples)")
    check(playing and playing[0][0] < final, f"the count starts below the final {final}: {playing[:1]}")
    check(rises >= 2, f"the count grows as the animation plays ({rises} rises: {[c for c, _ in playing]})")
    check(all(count == items for count, items in playing), "the list holds the placements found so far")
    check(all(b[0] >= a[0] for a, b in zip(playing, playing[1:])), "the count never falls")


def rotate_180(driver, url):
    """The 180-degree box: the API's placements then turn with f."""
    set_speed(driver, 100)
    driver.find_element(By.ID, "moves-clear").click()
    rotate = driver.find_element(By.ID, "moves-rotate180")
    shown = {}
    for ticked in (True, False):
        if rotate.is_selected() != ticked:
            rotate.click()
        driver.find_element(By.ID, "moves-end").click()
        wait_text(driver, "moves-status", lambda text: text == "done")
        shown[ticked] = (placement_inputs(driver), text_of(driver, "moves-turns"))
    answer = api(url, "/api/moves", board="/".join(["." * 10] * 6), piece="T", rotate180=1, events=0)
    with_f = [inputs for inputs in shown[True][0] if "f" in inputs]
    check(with_f and sorted(shown[True][0]) == sorted(p["inputs"] for p in answer["placements"]),
          f"with 180-degree turns the inputs are the API's, some turning 180: {with_f[:4]}")
    check(not any("f" in inputs for inputs in shown[False][0]), "without them none turns 180")
    check(shown[True][1] == "90° and 180°" and shown[False][1] == "90° only",
          f"the turns the answer searched: {shown[True][1]} / {shown[False][1]}")


def explorer_view(driver, url, shots):
    driver.find_element(By.ID, "tab-explorer").click()
    type_into(driver, explorer_heights="1,0,0,0")
    driver.find_element(By.ID, "explorer-go").click()
    type_into(driver, explorer_games="500", explorer_seed="3")
    driver.find_element(By.ID, "explorer-play").click()
    board = api(url, "/api/board", heights="1,0,0,0")
    value = f"{board['value']:.6f}"
    shown = wait_text(driver, "explorer-value", lambda text: text == value)
    check(shown == value, f"the explorer shows the value of 1,0,0,0: {shown} = the table's {value}")
    WebDriverWait(driver, 60).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#explorer-lengths svg"))
    check(len(driver.find_elements(By.CSS_SELECTOR, "#explorer-lengths svg")) == 1, "the length chart is drawn")
    means = wait_text(driver, "explorer-lengths", lambda text: "over 500 games (seed 3)" in text)
    check("over 500 games (seed 3)" in means, "the chart plays the games and seed asked")
    time.sleep(0.5)
    screenshot(driver, os.path.join(shots, "web-explorer.png"))
    # Rotations named as SRS names them (0 spawn, R, 2, L), as --explain does:
    # on 1,0,0,0 the flat T dropped with no turn is rotation 0, the T with its
    # stem left L, and the upright I at column 1, reached by a counter-clockwise
    # turn (wH), L.
    items = [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#explorer-placements .placement")]
    for after, name in (("[1,1,2,1]", "0"), ("[2,3,0,0]", "L"), ("[1,4,0,0]", "L")):
        said = [text for text in items if f"→ {after}" in text]
        check(len(said) == 1 and f" rotation {name} · " in said[0],
              f"the explorer names the placement to {after} rotation {name}: {said}")
    best = max((p for piece in board["pieces"] for p in piece["placements"]), key=lambda p: p["value"])
    first = driver.find_elements(By.CSS_SELECTOR, "#explorer-placements .placement")
    check(len(first) == sum(len(piece["placements"]) for piece in board["pieces"]), "one item per placement")
    first[0].click()
    successor = board["pieces"][0]["placements"][0]
    moved = wait_text(driver, "explorer-value", lambda text: text == f"{successor['value']:.6f}")
    check(moved == f"{successor['value']:.6f}", f"clicking the I's best placement moves to its successor ({moved})")
    check(best["value"] >= successor["value"], "values ranked")
    # Spaces separate heights; they never join digits ("1 0 0 0" is not 1000).
    type_into(driver, explorer_heights="1 0 0 0")
    driver.find_element(By.ID, "explorer-go").click()
    shown = wait_text(driver, "explorer-value", lambda text: text == value)
    check(shown == value and driver.find_element(By.ID, "explorer-heights").get_attribute("value") == "1,0,0,0",
          f"heights typed with spaces, '1 0 0 0', are 1,0,0,0: {shown}")


def opens_on_explorer(driver):
    """With a table the page opens on the table explorer (no #fragment
    asked), with a sentence on what V, the value, means."""
    WebDriverWait(driver, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "section.view:not([hidden])"))
    check(driver.find_element(By.ID, "view-explorer").is_displayed()
          and not driver.find_element(By.ID, "view-moves").is_displayed(),
          "with --table the page opens on the table explorer")
    intro = driver.find_element(By.ID, "view-explorer").text
    check(re.search(r"\bV\b[^.]*expected number of [^.]*pieces", intro) is not None,
          "the explorer says in a sentence what V means (the expected number of pieces ...)")


def fits_at_1280(driver):
    """At 1280 px, with the five algorithms' table filled in, nothing is
    wider than the window and that table fits its box (no sideways scroll)."""
    emulate_width(driver, 1280, 1000)
    try:
        driver.find_element(By.ID, "tab-moves").click()
        time.sleep(0.3)
        widths = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
        check(widths[0] <= 1280, f"at 1280 px the moves view is {widths[0]} px wide (the window {widths[1]})")
        wide = driver.execute_script(TOO_WIDE)
        check(not wide, "at 1280 px no element is wider than the window" + ("" if not wide else ": " + "; ".join(wide[:4])))
        table = driver.execute_script(
            "const t = document.getElementById('moves-compare'), box = t.parentElement;"
            "return [t.getBoundingClientRect().right, box.getBoundingClientRect().right, box.scrollWidth, box.clientWidth]")
        check(table[0] <= table[1] + 0.5 and table[2] <= table[3],
              f"at 1280 px the five algorithms' table fits its box: right {table[0]:.0f} <= {table[1]:.0f}, "
              f"{table[2]} <= {table[3]} px")
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def resize_on_explorer(driver):
    """Narrowing the window to a phone's width and back on the explorer
    (its chart redrawn at each width) shows no error banner."""
    driver.find_element(By.ID, "tab-explorer").click()
    WebDriverWait(driver, 60).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#explorer-lengths svg"))
    try:
        for width in (375, 1280, 375, 800, 1280):
            emulate_width(driver, width, 900)
            time.sleep(0.4)
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    time.sleep(0.3)
    banner = driver.find_element(By.ID, "page-error")
    check(not banner.is_displayed(), "resizing the explorer to 375 px and back shows no error banner"
          + ("" if not banner.is_displayed() else f": '{banner.text}'"))


def replay_load(driver, seed=None):
    """Load with the seed typed (None: as it is); the status line after it."""
    if seed is not None:
        type_into(driver, replay_seed=seed)
    driver.execute_script("document.getElementById('replay-status').textContent = ''")
    driver.find_element(By.ID, "replay-load").click()
    return wait_text(driver, "replay-status", lambda text: text and text != "loading…")


def replay_view(driver, url, shots):
    driver.find_element(By.ID, "tab-replay").click()
    # Shown, it loads seed 7 by itself (no Load pressed).
    status = wait_text(driver, "replay-status", lambda text: "seed 7" in text)
    placed = re.search(r"(\d+) pieces placed", status)
    check("seed 7" in status and placed and int(placed.group(1)) >= 1 and not text_of(driver, "replay-error"),
          f"the replay opens on seed 7, a game with moves: '{status}'")
    status = replay_load(driver)
    placed = re.search(r"(\d+) pieces placed", status)
    check(placed and int(placed.group(1)) >= 1 and not text_of(driver, "replay-error"),
          f"the default replay has moves: '{status}'")
    replay_load(driver, "1")
    check("Z, has no placement without a hole" in text_of(driver, "replay-error"),
          f"a game without a move says why: '{text_of(driver, 'replay-error')}'")
    replay_load(driver, "abc")
    check("seed" in text_of(driver, "replay-error") and "abc" in text_of(driver, "replay-error"),
          f"a seed of abc is refused: '{text_of(driver, 'replay-error')}'")
    # A failed Load leaves no game drawn under "no game loaded".
    drawn = driver.find_elements(By.CSS_SELECTOR, "#replay-well .cell.filled, #replay-well .cell.chosen")
    check(not drawn and text_of(driver, "replay-frame") == "no game loaded"
          and not driver.find_elements(By.CSS_SELECTOR, "#replay-alternatives li"),
          f"after a failed Load no game is drawn: {len(drawn)} cells, '{text_of(driver, 'replay-frame')}'")
    Select(driver.find_element(By.ID, "replay-policy")).select_by_value("lookahead 2")
    status = replay_load(driver, "7")
    check("lookahead 2" in status and not text_of(driver, "replay-error"), f"a lookahead policy plays: '{status}'")
    heights = driver.find_element(By.ID, "replay-heights")
    heights.send_keys("2,2,2,x")
    replay_load(driver)
    check("heights" in text_of(driver, "replay-error"), f"bad start heights are refused: '{text_of(driver, 'replay-error')}'")
    heights.clear()
    heights.send_keys("1,0,0,0")
    status = replay_load(driver)
    game = api(url, "/api/game", seed=7, policy="lookahead 2", heights="1,0,0,0")
    check(f"{game['pieces_placed']} pieces placed" in status, f"a game from start heights 1,0,0,0: '{status}'")
    heights.clear()
    Select(driver.find_element(By.ID, "replay-game")).select_by_value("tetris")
    # The new game's status first: the last game's frame also reads "move 1"
    # until the new one arrives, and a click before it steps the old one.
    replay_load(driver, "3")
    first = wait_text(driver, "replay-frame", lambda text: text.startswith("move 1 "))
    for _ in range(12):
        driver.find_element(By.ID, "replay-next").click()
    later = text_of(driver, "replay-frame")
    check(first.startswith("move 1 ") and later.startswith("move 13 "), f"replay steps: '{first}' then '{later}'")
    game = api(url, "/api/game", game="tetris", seed=3, policy="dellacherie")
    check(f"of {len(game['turns'])}" in later, f"the frame count is the game's {len(game['turns'])} turns")
    check(len(driver.find_elements(By.CSS_SELECTOR, "#replay-alternatives li")) >= 1, "the alternatives are listed")
    # A seed past 2^53 is shown as typed, not rounded as a JavaScript number.
    type_into(driver, replay_pieces="5")
    status = replay_load(driver, "18446744073709551615")
    check("seed 18446744073709551615:" in status, f"the largest seed is shown exactly: '{status}'")
    type_into(driver, replay_pieces="200")
    screenshot(driver, os.path.join(shots, "web-replay.png"))


# Visible elements reaching past the window's right edge, other than inside
# a box that scrolls or clips sideways.
TOO_WIDE = """
const out = [];
for (const el of document.querySelectorAll('body *')) {
  const r = el.getBoundingClientRect();
  if (r.width === 0 && r.height === 0) continue;
  let clipped = false;
  for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
    if (['auto', 'scroll', 'hidden'].includes(getComputedStyle(p).overflowX)) { clipped = true; break; }
  }
  if (!clipped && (r.right > window.innerWidth + 0.5 || r.width > window.innerWidth + 0.5))
    out.push(`${el.tagName.toLowerCase()}#${el.id}.${el.className}: ${Math.round(r.left)} to ${Math.round(r.right)}`);
}
return out;
"""


# Words of the selected elements split over two lines: each word's text
# range drawn as more than one box.
BROKEN_WORDS = """
const out = [];
for (const el of document.querySelectorAll(arguments[0])) {
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const re = /\\S+/g;
    for (let m = re.exec(node.data); m; m = re.exec(node.data)) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      if (lines.size > 1) out.push(m[0]);
    }
  }
}
return out;
"""

# The rendered sizes (px, smallest first) of the selected SVG texts: the
# font size times the SVG's scale on the page.
SMALL_TEXT = """
return [...document.querySelectorAll(arguments[0])].map((t) => {
  const svg = t.ownerSVGElement;
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  return parseFloat(getComputedStyle(t).fontSize) * scale;
}).sort((a, b) => a - b);
"""


def narrow_views(driver, shots):
    """At 400 px every view fits the window: nothing scrolls sideways. The
    screenshots show the top of each view (at most 1,800 px of it)."""
    emulate_width(driver, 400, 900)
    try:
        for view in ("moves", "explorer", "replay"):
            driver.find_element(By.ID, f"tab-{view}").click()
            if view == "moves":
                driver.find_element(By.ID, "moves-preset-shaft").click()
                driver.find_element(By.ID, "moves-end").click()
                wait_text(driver, "moves-status", lambda text: text == "done")
                driver.find_element(By.ID, "bot-ask").click()
                WebDriverWait(driver, 30).until(lambda d: d.find_elements(By.ID, "bot-inputs"))
            if view == "replay":
                Select(driver.find_element(By.ID, "replay-game")).select_by_value("stacking")
                replay_load(driver, "7")
            time.sleep(0.3)
            if view == "moves":
                broken = driver.execute_script(BROKEN_WORDS, "#moves-compare th, #moves-compare td")
                check(not broken, f"at 400 px the compare table breaks no word: {broken[:4]}")
            if view == "explorer":
                small = driver.execute_script(SMALL_TEXT, "#explorer-lengths .tick, #explorer-lengths .chart-legend text")
                check(small and small[0] >= 10.5, f"at 400 px the chart's ticks and legend are at least 11 px: "
                      f"the smallest {small and small[0]:.1f} px")
            widths = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
            wide = driver.execute_script(TOO_WIDE)
            check(widths[0] <= widths[1], f"at 400 px the {view} view is {widths[0]} px wide (the window {widths[1]})")
            check(not wide, f"at 400 px no element of the {view} view is wider than the window" +
                  ("" if not wide else ": " + "; ".join(wide[:4])))
            screenshot(driver, os.path.join(shots, f"web-{view}-400.png"), 400, 1800, then=(400, 900))
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def without_table(driver, stackplay):
    """A server without --table: the explorer says so and shows no controls;
    the replay's default is the real game, which plays."""
    server, url = start_server(stackplay)
    try:
        driver.get(url + "/")
        WebDriverWait(driver, 30).until(lambda d: d.find_element(By.ID, "view-moves").is_displayed())
        check(not driver.find_element(By.ID, "view-explorer").is_displayed(),
              "without a table the page opens on move generation")
        driver.get(url + "/#explorer")
        WebDriverWait(driver, 30).until(lambda d: d.find_element(By.ID, "explorer-note").is_displayed())
        hidden = [element_id for element_id in ("explorer-go", "explorer-empty", "explorer-heights", "explorer-main")
                  if not driver.find_element(By.ID, element_id).is_displayed()]
        check(len(hidden) == 4, f"without a table the explorer's controls are hidden: {hidden}")
        driver.find_element(By.ID, "tab-replay").click()
        WebDriverWait(driver, 10).until(
            lambda d: Select(d.find_element(By.ID, "replay-game")).first_selected_option.get_attribute("value") == "tetris")
        status = replay_load(driver)
        check(status.startswith("tetris") and not text_of(driver, "replay-error"),
              f"without a table the default replay is the real game: '{status}'")
    finally:
        server.terminate()
        server.wait(timeout=10)


def main():
    stackplay, table, shots = sys.argv[1:4]
    os.makedirs(shots, exist_ok=True)
    server, url = start_server(stackplay, table)
    profile = tempfile.mkdtemp(prefix="chromium-")
    driver = None
    try:
        driver = start_browser(profile)
        driver.get(url + "/")
        WebDriverWait(driver, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#moves-board .cell"))
        check(len(driver.find_elements(By.CSS_SELECTOR, "#moves-board .cell")) == 200, "a 10x20 board of cells")
        opens_on_explorer(driver)
        moves_view(driver, url, shots)
        fits_at_1280(driver)
        explorer_view(driver, url, shots)
        resize_on_explorer(driver)
        replay_view(driver, url, shots)
        narrow_views(driver, shots)
        errors = javascript_errors(driver)
        check(server.poll() is None, "the server is still running")
        without_table(driver, stackplay)
        errors += javascript_errors(driver)
        check(not errors, "no JavaScript errors" + ("" if not errors else ": " + "; ".join(errors[:3])))
    finally:
        if driver:
            driver.quit()
        server.terminate()
        server.wait(timeout=10)
        subprocess.run(["rm", "-rf", profile])
    print(f"{len(failures)} failed" if failures else "all passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
