"""Which shard nginx's routing sends each namespace to, asked of Debian's real nginx with the real routing
file (deploy/render-routing) for a given list of shard addresses: the ring depends on those strings.

nginx is started on a loopback port with the routing rendered for `addresses`; nothing needs to listen on
them (nginx names the shard it chose in the X-Lifecycled-Shard header, also on a 502). Used by
deploy/measure-rebalance and deploy/reshard.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Tests", "Support"))
from lifecycled_support import free_port  # noqa: E402

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def nginx_conf(work, routing):
    return f"""worker_processes 1;
pid {work}/nginx.pid;
error_log {work}/error.log;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    client_body_temp_path {work}/body;
    proxy_temp_path {work}/proxy;
    fastcgi_temp_path {work}/fastcgi;
    uwsgi_temp_path {work}/uwsgi;
    scgi_temp_path {work}/scgi;
    include {routing};
}}
"""


def placement(addresses, names):
    """{name: the address of its shard} for a router over `addresses` (host:port strings)."""
    work = tempfile.mkdtemp(prefix="lifecycled-ring-")
    try:
        port = free_port()
        routing = subprocess.run(
            [os.path.join(HERE, "render-routing"), "--listen", f"127.0.0.1:{port}"]
            + [a for address in addresses for a in ("--shard", address)],
            check=True, capture_output=True, text=True).stdout
        with open(os.path.join(work, "routing.conf"), "w") as f:
            f.write(routing)
        with open(os.path.join(work, "nginx.conf"), "w") as f:
            f.write(nginx_conf(work, os.path.join(work, "routing.conf")))
        subprocess.run([NGINX, "-c", os.path.join(work, "nginx.conf"), "-p", work], check=True)
        try:
            for _ in range(100):
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/router/healthz", timeout=1)
                    break
                except OSError:
                    time.sleep(0.05)
            where = {}
            for name in names:
                try:
                    answer = urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/namespaces/{name}", timeout=5)
                    where[name] = answer.headers["X-Lifecycled-Shard"]
                except urllib.error.HTTPError as error:
                    where[name] = error.headers["X-Lifecycled-Shard"]
            return where
        finally:
            subprocess.run([NGINX, "-c", os.path.join(work, "nginx.conf"), "-p", work, "-s", "stop"],
                           capture_output=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
