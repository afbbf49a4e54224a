"""The HTML report in a real browser: headless Chromium (Debian's ``chromium`` and
``chromium-driver``, driven by selenium) opens a generated report from disk with no network and
checks what a reader sees: every Pareto row on screen and in print, tables no wider than a
1024-pixel window, sorting and filtering that work, a point and a hover for every plotted
design, a legend of every family drawn, the answer on the first screen at 1280x800 and on a
390-pixel phone (where the chart gets the width and nothing widens the page), no console error.
It saves screenshots: the whole page and the first screen at both sizes
(``TOPOLAB_SCREENSHOT_DIR`` names where; by default the test's temporary directory).

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


def _viewport(driver, width: int, height: int, mobile: bool = False) -> None:
    """The page laid out for a ``width`` x ``height`` CSS-pixel screen (a phone's with
    ``mobile``), then scrolled to the top."""
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 2 if mobile else 1, "mobile": mobile},
    )
    driver.execute_script("window.scrollTo(0, 0)")
    # the chart redraws at its new width on the next frames
    driver.execute_script("return new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def _reset_viewport(driver) -> None:
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    driver.execute_script("return new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def _screenshot(driver, tmp_path, name: str) -> Path:
    directory = Path(os.environ.get("TOPOLAB_SCREENSHOT_DIR", tmp_path))
    directory.mkdir(parents=True, exist_ok=True)
    shot = directory / name
    assert driver.save_screenshot(str(shot))
    assert shot.stat().st_size > 10_000
    return shot


def _plotted(result):
    return result.frame.dropna(subset=["cost_per_endpoint", "bisection_per_endpoint"])


def test_every_plotted_design_is_a_point_whose_hover_names_it(page, result):
    names = page.execute_script(
        """return [...document.querySelectorAll("#cost-bandwidth-chart path.point")].map(
            p => p.dataset.name);"""
    )
    for _, row in _plotted(result).iterrows():
        assert f"#{int(row['rank'])} {row['name']}" in names, row["name"]
    # a real mouse over a point that nothing covers shows its name
    from selenium.webdriver.common.action_chains import ActionChains

    target = page.execute_script(
        """for (const p of document.querySelectorAll("#cost-bandwidth-chart path.point")) {
             p.scrollIntoView({block: "center"});
             const r = p.getBoundingClientRect();
             if (document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === p) return p;
           }
           return null;"""
    )
    assert target is not None
    ActionChains(page).move_to_element(target).perform()
    tip = page.find_element("css selector", "#cost-bandwidth-chart .chart-tip")
    assert tip.is_displayed() and tip.text.split("\n")[0] == target.get_attribute("data-name")


def test_the_legend_shows_every_family_drawn_and_hides_one_on_a_click(page, result):
    families = list(dict.fromkeys(_plotted(result)["family_name"]))
    entries = page.find_elements("css selector", "#cost-bandwidth-chart .chart-legend button[data-family]")
    assert sorted(e.get_attribute("data-family") for e in entries) == sorted(families)
    recommended = page.find_element("css selector", "#cost-bandwidth-chart .legend-recommended")
    legend = page.find_element("css selector", "#cost-bandwidth-chart .chart-legend")
    assert _clipping_boxes(page, recommended) == [] and all(_row_is_seen(page, e) for e in entries)
    assert recommended.is_displayed() and legend.is_displayed()
    # the recommendation is marked on the chart itself: a star, and its name beside it
    star = page.find_element("css selector", "#cost-bandwidth-chart path.recommended")
    label = page.find_element("css selector", "#cost-bandwidth-chart .recommended-label")
    assert star.is_displayed() and str(result.frame["name"].iloc[0]) in label.text

    def drawn(family):
        return page.execute_script(
            """return [...document.querySelectorAll("#cost-bandwidth-chart path.point")].filter(
                p => p.dataset.family === arguments[0]).length""",
            family,
        )

    entry = entries[0]
    family = entry.get_attribute("data-family")
    before = drawn(family)
    assert before == int((_plotted(result)["family_name"] == family).sum())
    page.execute_script("arguments[0].scrollIntoView({block: 'center'})", entry)
    entry.click()
    assert drawn(family) == 0
    entry.click()
    assert drawn(family) == before


def test_the_first_screen_at_1280_by_800(page, result, tmp_path):
    _viewport(page, 1280, 800)
    try:
        box = page.execute_script(
            """const r = document.getElementById("recommendation").getBoundingClientRect();
            return [r.top, r.bottom, window.innerHeight];"""
        )
        top, bottom, height = box
        assert 0 <= top and bottom <= height, f"the answer spans {top:.0f}-{bottom:.0f} px of {height}"
        block = page.find_element("id", "recommendation")
        assert str(result.frame["name"].iloc[0]) in block.text and "runner-up" in block.text
        assert _page_overflow(page) <= 0
        _screenshot(page, tmp_path, "first_screen_1280x800.png")
    finally:
        _reset_viewport(page)


def _page_overflow(driver) -> float:
    """How far the page reaches past the window's right edge (px; > 0: the reader must scroll
    the whole page sideways)."""
    return driver.execute_script(
        "return document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )


def test_the_first_screen_on_a_390_pixel_phone(page, result, tmp_path):
    _viewport(page, 390, 844, mobile=True)
    try:
        width = page.execute_script("return document.documentElement.clientWidth")
        assert width == 390
        assert _page_overflow(page) <= 0, "the page is wider than the phone"
        # the recommendation starts on the first screen
        top = page.execute_script(
            "return document.querySelector('#recommendation p.verdict').getBoundingClientRect().bottom"
        )
        assert top <= 844
        # the answer's table fits the screen: no sideways scrolling for the key columns
        fits = page.execute_script(
            """const t = document.querySelector("#recommendation table"), box = t.parentElement;
            return [t.getBoundingClientRect().right, box.scrollWidth - box.clientWidth];"""
        )
        assert fits[0] <= width and fits[1] <= 0, fits
        # the chart gets the width
        plot = page.execute_script(
            "return document.querySelector('#cost-bandwidth-chart svg').getBoundingClientRect().width"
        )
        assert plot >= 0.9 * width, f"the chart is {plot:.0f} px wide on a {width} px screen"
        # a wide table scrolls inside its own box, every column there to scroll to
        table = page.find_element("id", "front-table")
        scroller = page.execute_script(
            """let e = arguments[0].parentElement;
            while (e && getComputedStyle(e).overflowX === "visible") e = e.parentElement;
            return e && [e.clientWidth, e.scrollWidth, arguments[0].getBoundingClientRect().width];""",
            table,
        )
        assert scroller is not None
        assert scroller[0] <= width
        headers = len(page.find_elements("css selector", "#front-table thead th"))
        assert headers == len(page.find_elements("css selector", "#front-table tbody tr:first-child td"))
        # a tap on the star names the recommendation
        star = page.find_element("css selector", "#cost-bandwidth-chart path.recommended")
        page.execute_script("arguments[0].scrollIntoView({block: 'center'})", star)
        star.click()
        tip = page.find_element("css selector", "#cost-bandwidth-chart .chart-tip")
        assert tip.is_displayed() and str(result.frame["name"].iloc[0]) in tip.text
        page.execute_script("window.scrollTo(0, 0)")
        _screenshot(page, tmp_path, "first_screen_390.png")
    finally:
        _reset_viewport(page)


def test_no_console_errors_and_a_screenshot(page, tmp_path):
    errors = [e for e in page.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == []
    height = page.execute_script("return document.documentElement.scrollHeight")
    page.set_window_size(WIDTH, min(int(height) + 100, 16000))
    _screenshot(page, tmp_path, "report_chromium.png")
    page.set_window_size(WIDTH, 900)
