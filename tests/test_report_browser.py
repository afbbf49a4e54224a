"""The HTML report in a real browser: headless Chromium (Debian's ``chromium`` and
``chromium-driver``, driven by selenium) opens a generated report from disk with no network and
checks what a reader sees: every Pareto row on screen and in print, tables no wider than a
1024-pixel window, sorting and filtering that work, a hover text for every plotted design, no
console error. It saves a full-page screenshot (``TOPOLAB_SCREENSHOT_DIR`` names where; by
default the test's temporary directory).

Outside CI the test is skipped when Chromium, its driver or selenium is missing; in CI (``CI``
set) that is a failure, since .ci/run installs them."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from topolab.design.compare import CompareSettings, run_comparison
from topolab.report import write_report

WIDTH = 1024
SETTINGS = CompareSettings(
    radix=12, endpoints=100, families=("slimfly", "hyperx", "fattree", "torus", "jellyfish"), per_family=4
)


def _missing() -> str:
    missing = [name for name in ("chromium", "chromedriver") if shutil.which(name) is None]
    try:
        import selenium  # noqa: F401
    except ImportError:
        missing.append("selenium (pip install -e '.[test]')")
    return ", ".join(missing)


@pytest.fixture(scope="module")
def browser():
    missing = _missing()
    if missing:
        message = f"the browser test needs {missing} (Debian: apt-get install chromium chromium-driver)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(flag)
    options.add_argument(f"--window-size={WIDTH},900")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
    driver.set_page_load_timeout(120)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def result():
    return run_comparison(SETTINGS, progress=False)


@pytest.fixture(scope="module")
def page(browser, result, tmp_path_factory):
    from selenium.webdriver.support.ui import WebDriverWait

    directory = tmp_path_factory.mktemp("browser-report")
    paths = write_report(result, directory)
    browser.get(Path(paths["html"]).resolve().as_uri())
    WebDriverWait(browser, 90).until(lambda d: d.execute_script("return document.body.dataset.tablesReady"))
    return browser


def _front_rows(driver):
    return driver.find_elements("css selector", "#front-table tbody tr")


def _clipping_boxes(driver, element) -> list[str]:
    """The element's ancestors (below the page itself) that clip their content: a fixed-height
    scroll box hides rows on a screenshot and in print."""
    return driver.execute_script(
        """const out = [];
        for (let e = arguments[0].parentElement; e && e !== document.body; e = e.parentElement) {
          const style = getComputedStyle(e);
          if (style.overflowY !== "visible" && e.scrollHeight > e.clientHeight + 1)
            out.push(e.tagName + "." + e.className);
        }
        return out;""",
        element,
    )


def _row_is_seen(driver, row) -> bool:
    """The row is displayed and, scrolled to, is what the browser shows at its centre (not
    covered)."""
    return bool(
        driver.execute_script(
            """const row = arguments[0];
            row.scrollIntoView({block: "center"});
            const r = row.getBoundingClientRect();
            const hit = document.elementFromPoint(r.left + Math.min(r.width, 40) / 2, r.top + r.height / 2);
            return r.height > 0 && hit !== null && row.contains(hit);""",
            row,
        )
    )


def test_every_pareto_row_is_visible_on_screen_and_in_print(page, result):
    names = list(result.front["name"])
    rows = _front_rows(page)
    assert [r.find_element("css selector", "td.name").text.split("\n")[0] for r in rows] == names
    assert all(_row_is_seen(page, r) for r in rows)
    table = page.find_element("id", "front-table")
    assert _clipping_boxes(page, table) == []
    page.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        assert all(r.is_displayed() for r in _front_rows(page))
        assert _clipping_boxes(page, table) == []
    finally:
        page.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})


def test_a_scroll_box_would_be_seen(page):
    """The clipping check finds a fixed-height scroll box (the old report's), so the check
    above can fail."""
    table = page.find_element("id", "all-table")
    page.execute_script(
        "arguments[0].parentElement.style.cssText = 'max-height: 10em; overflow: auto'", table
    )
    try:
        assert _clipping_boxes(page, table) != []
    finally:
        page.execute_script("arguments[0].parentElement.style.cssText = ''", table)


def test_tables_fit_the_window(page):
    widths = page.execute_script(
        """return [...document.querySelectorAll("table.report")].map(
            t => [t.id, t.getBoundingClientRect().right, document.documentElement.clientWidth]);"""
    )
    assert widths, "no table"
    for table_id, right, window in widths:
        assert right <= window + 1, f"{table_id} ends at {right:.0f} px in a {window} px window"


def test_sorting_by_cost_orders_the_rows_by_the_measured_cost(page, result):
    header = page.find_element("xpath", "//table[@id='front-table']//th[normalize-space(.)='$/ep']")

    def shown_costs():
        return [
            float(td.get_attribute("data-order"))
            for td in page.find_elements("css selector", "#front-table tbody td.cost_per_endpoint")
        ]

    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.support.ui import WebDriverWait

    expected = sorted(result.front["cost_per_endpoint"].astype(float))
    for order in (expected, expected[::-1]):  # a click sorts ascending, the next descending
        page.execute_script("arguments[0].scrollIntoView({block: 'center'})", header)
        header.click()
        # the browser may be slow on a busy machine: wait for the rows to move, then compare
        try:
            WebDriverWait(page, 30).until(
                lambda _, want=order: shown_costs() == pytest.approx(want, rel=1e-12)
            )
        except TimeoutException:
            pass  # the assertion below says what was shown
        assert shown_costs() == pytest.approx(order, rel=1e-12)


def test_filtering_keeps_the_matching_rows(page, result):
    family = result.front["family_name"].value_counts().index[0]
    box = page.find_element("css selector", "#front-table_wrapper input[type=search]")
    box.clear()
    box.send_keys(family)
    names = [r.find_element("css selector", "td.name").text.split("\n")[0] for r in _front_rows(page)]
    assert sorted(names) == sorted(result.front.loc[result.front["family_name"] == family, "name"])
    box.clear()
    box.send_keys(" ")  # DataTables filters on input; back to every row
    assert len(_front_rows(page)) == len(result.front)


def test_every_plotted_design_has_a_hover_naming_it(page, result):
    texts = page.execute_script(
        """return document.getElementById("cost-bandwidth-chart").data.flatMap(t => t.text || []);"""
    )
    plotted = result.frame.dropna(subset=["cost_per_endpoint", "bisection_per_endpoint"])
    for name in plotted["name"]:
        assert any(f" {name}</b>" in t for t in texts), name


def test_no_console_errors_and_a_screenshot(page, tmp_path):
    errors = [e for e in page.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == []
    height = page.execute_script("return document.documentElement.scrollHeight")
    page.set_window_size(WIDTH, min(int(height) + 100, 16000))
    directory = Path(os.environ.get("TOPOLAB_SCREENSHOT_DIR", tmp_path))
    directory.mkdir(parents=True, exist_ok=True)
    shot = directory / "report_chromium.png"
    assert page.save_screenshot(str(shot))
    assert shot.stat().st_size > 10_000
    page.set_window_size(WIDTH, 900)
