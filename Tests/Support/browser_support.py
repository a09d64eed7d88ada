"""What the browser tests (Tests/System/dashboard-test.py, Tests/System/cors-test.py) share: Debian's chromium,
headless, driven by selenium through chromium-driver (scripts/setup --tests installs them), and one wait that
polls the page instead of sleeping.

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Support"))
    from browser_support import browser, wait
"""
import os

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

WAIT = 15


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    options.add_argument("--headless=new")
    options.add_argument("--window-size=1366,768")
    options.add_argument("--disable-dev-shm-usage")
    options.add_argument("--disable-gpu")
    if os.geteuid() == 0:
        options.add_argument("--no-sandbox")  # chromium's sandbox refuses to run as root
    service = Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    return webdriver.Chrome(service=service, options=options)


def wait(driver, condition):
    """Polls until `condition(driver)` is truthy and returns its value; None when it never is."""
    try:
        return WebDriverWait(driver, WAIT, poll_frequency=0.1, ignored_exceptions=[StaleElementReferenceException]) \
            .until(lambda d: condition(d))
    except TimeoutException:
        return None
