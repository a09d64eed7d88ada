"""waitready.py URL TIMEOUT: polls URL every 5 ms until it answers 200; prints the seconds it took.
Exit status 1 on timeout."""
import sys
import time
import urllib.request

url, timeout = sys.argv[1], float(sys.argv[2])
start = time.monotonic()
while time.monotonic() - start < timeout:
    try:
        with urllib.request.urlopen(url, timeout=2) as answer:
            if answer.status == 200:
                print(f"{time.monotonic() - start:.3f}")
                sys.exit(0)
    except Exception:
        pass
    time.sleep(0.005)
sys.exit(1)
