#!/usr/bin/python3
"""The web viewer in a real browser: headless chromium driven by selenium.

    web_browser.py STACKPLAY TABLE SCREENSHOT_DIR

Starts `STACKPLAY --serve --port 0 --table TABLE` on loopback, then uses the
page as a person would:
  - move generation: draws a board by clicking cells, picks a piece and an
    algorithm, presses Play, waits for the animation to finish and checks the
    count shown, and the five algorithms' counts side by side, against the
    JSON API; the shaft preset shows convolution-seed's misses (11 against 17);
    clicking a placement shows its inputs;
  - table explorer: the value shown for a known stack equals the table's,
    the length chart is drawn, and clicking the best placement moves there;
  - replay: a seeded real game loads and steps frame by frame.
Takes a screenshot of each view into SCREENSHOT_DIR (scripts/web-screenshots
puts them in results/). Fails on any JavaScript error in the console.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time
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


def start_server(stackplay, table):
    server = subprocess.Popen([stackplay, "--serve", "--port", "0", "--table", table],
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


def start_browser(profile):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-extensions", "--no-first-run",
                 "--window-size=1400,1000", f"--user-data-dir={profile}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def text_of(driver, element_id):
    return driver.find_element(By.ID, element_id).text.strip()


def wait_text(driver, element_id, predicate, seconds=30):
    WebDriverWait(driver, seconds).until(lambda d: predicate(text_of(d, element_id)))
    return text_of(driver, element_id)


def javascript_errors(driver):
    """Console errors other than the browser's own note of a 4xx answer."""
    return [entry["message"] for entry in driver.get_log("browser")
            if entry["level"] == "SEVERE" and "Failed to load resource" not in entry["message"]]


def moves_view(driver, url, shots):
    driver.find_element(By.ID, "tab-moves").click()
    # The bottom row full but for column 2, and a cell above column 3:
    # drawn by clicking, as a person would.
    drawn = [(x, 0) for x in range(10) if x != 2] + [(3, 2), (4, 2)]
    for x, y in drawn:
        driver.find_element(By.CSS_SELECTOR, f'#moves-board .cell[data-x="{x}"][data-y="{y}"]').click()
    rows = [["."] * 10 for _ in range(20)]
    for x, y in drawn:
        rows[19 - y][x] = "#"
    board = "/".join("".join(row) for row in rows)
    Select(driver.find_element(By.ID, "moves-piece")).select_by_visible_text("T")
    Select(driver.find_element(By.ID, "moves-algorithm")).select_by_value("bfs")
    driver.execute_script("const s = document.getElementById('moves-speed'); s.value = s.max;"
                          "s.dispatchEvent(new Event('input'));")
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
    placements = driver.find_elements(By.CSS_SELECTOR, "#moves-placements li")
    check(len(placements) == len(expected["bfs"]["placements"]), "one list item per placement")
    placements[-1].click()
    inputs = expected["bfs"]["placements"][-1]["inputs"]
    check(inputs in text_of(driver, "moves-inputs"), f"clicking a placement shows its inputs {inputs}")
    driver.save_screenshot(os.path.join(shots, "web-moves.png"))

    driver.find_element(By.ID, "moves-preset-shaft").click()
    driver.find_element(By.ID, "moves-play").click()
    wait_text(driver, "moves-status", lambda text: text == "done", 60)
    counts = {}
    for algorithm in ("bfs", "convolution", "convolution-seed"):
        counts[algorithm] = WebDriverWait(driver, 30).until(lambda d: d.find_element(
            By.CSS_SELECTOR, f'#moves-compare tr[data-algorithm="{algorithm}"] td.count').text.strip())
    check(counts == {"bfs": "17", "convolution": "17", "convolution-seed": "11"},
          f"the shaft preset: {counts} (bfs 17, convolution 17, convolution-seed 11)")
    driver.save_screenshot(os.path.join(shots, "web-moves-shaft.png"))


def explorer_view(driver, url, shots):
    driver.find_element(By.ID, "tab-explorer").click()
    heights = driver.find_element(By.ID, "explorer-heights")
    heights.clear()
    heights.send_keys("1,0,0,0")
    driver.find_element(By.ID, "explorer-go").click()
    board = api(url, "/api/board", heights="1,0,0,0")
    value = f"{board['value']:.6f}"
    shown = wait_text(driver, "explorer-value", lambda text: text == value)
    check(shown == value, f"the explorer shows the value of 1,0,0,0: {shown} = the table's {value}")
    WebDriverWait(driver, 60).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#explorer-lengths svg"))
    check(len(driver.find_elements(By.CSS_SELECTOR, "#explorer-lengths svg")) == 1, "the length chart is drawn")
    time.sleep(0.5)
    driver.save_screenshot(os.path.join(shots, "web-explorer.png"))
    best = max((p for piece in board["pieces"] for p in piece["placements"]), key=lambda p: p["value"])
    first = driver.find_elements(By.CSS_SELECTOR, "#explorer-placements .placement")
    check(len(first) == sum(len(piece["placements"]) for piece in board["pieces"]), "one item per placement")
    first[0].click()
    successor = board["pieces"][0]["placements"][0]
    moved = wait_text(driver, "explorer-value", lambda text: text == f"{successor['value']:.6f}")
    check(moved == f"{successor['value']:.6f}", f"clicking the I's best placement moves to its successor ({moved})")
    check(best["value"] >= successor["value"], "values ranked")


def replay_view(driver, url, shots):
    driver.find_element(By.ID, "tab-replay").click()
    Select(driver.find_element(By.ID, "replay-game")).select_by_value("tetris")
    seed = driver.find_element(By.ID, "replay-seed")
    seed.clear()
    seed.send_keys("3")
    driver.find_element(By.ID, "replay-load").click()
    first = wait_text(driver, "replay-frame", lambda text: text.startswith("move 1 "))
    for _ in range(12):
        driver.find_element(By.ID, "replay-next").click()
    later = text_of(driver, "replay-frame")
    check(first.startswith("move 1 ") and later.startswith("move 13 "), f"replay steps: '{first}' then '{later}'")
    game = api(url, "/api/game", game="tetris", seed=3, policy="dellacherie")
    check(f"of {len(game['turns'])}" in later, f"the frame count is the game's {len(game['turns'])} turns")
    check(len(driver.find_elements(By.CSS_SELECTOR, "#replay-alternatives li")) >= 1, "the alternatives are listed")
    driver.save_screenshot(os.path.join(shots, "web-replay.png"))


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
        moves_view(driver, url, shots)
        explorer_view(driver, url, shots)
        replay_view(driver, url, shots)
        errors = javascript_errors(driver)
        check(not errors, "no JavaScript errors" + ("" if not errors else ": " + "; ".join(errors[:3])))
        check(server.poll() is None, "the server is still running")
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
