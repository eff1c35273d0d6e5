#!/usr/bin/env python3
"""An HTTP proxy in front of an S3 server that ignores `If-None-Match: *`
(s3rver 3.7 overwrites the object and answers 200), for the tests that run
against it (test/shell/s3rver.sh, docs/object-storage.md).

A PUT with `If-None-Match: *` becomes, under one lock, a HEAD of the key and
then the PUT only when the HEAD found nothing; otherwise 412
PreconditionFailed, as S3 answers. That is exact while every conditional
writer goes through this proxy (the test's processes do). Every other request
is forwarded unchanged, Host header included, so the signature the client
computed still matches.

    conditional_put_proxy.py UPSTREAM_PORT PORT_FILE
"""

import http.client
import os
import http.server
import sys
import threading

UPSTREAM = ("127.0.0.1", int(sys.argv[1]))
_lock = threading.Lock()
_HOP = {"connection", "keep-alive", "transfer-encoding", "proxy-connection", "te", "upgrade"}


def _send(method, path, headers, body):
    conn = http.client.HTTPConnection(*UPSTREAM, timeout=30)
    try:
        conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        for k, v in headers:
            if k.lower() not in _HOP:
                conn.putheader(k, v)
        conn.endheaders(body)
        resp = conn.getresponse()
        data = resp.read()
        return resp.status, [(k, v) for k, v in resp.getheaders() if k.lower() not in _HOP], data
    finally:
        conn.close()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def _answer(self, status, headers, body):
        self.send_response(status)
        for k, v in headers:
            if k.lower() not in ("content-length", "date", "server"):  # send_response wrote these
                self.send_header(k, v)
        if self.command == "HEAD":
            length = dict((k.lower(), v) for k, v in headers).get("content-length", "0")
            self.send_header("Content-Length", length)
            self.end_headers()
            return
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _forward(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else None
        headers = list(self.headers.items())
        if self.command == "PUT" and self.headers.get("If-None-Match", "").strip() == "*":
            key_path = self.path.split("?", 1)[0]
            with _lock:
                status, _, _ = _send("HEAD", key_path, [("Host", self.headers.get("Host", ""))], None)
                if status == 200:
                    xml = (b'<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>PreconditionFailed</Code>'
                           b'<Message>At least one of the pre-conditions you specified did not hold</Message>'
                           b'<Condition>If-None-Match</Condition></Error>')
                    self._answer(412, [("Content-Type", "application/xml")], xml)
                    return
                self._answer(*_send(self.command, self.path, headers, body))
                return
        self._answer(*_send(self.command, self.path, headers, body))

    do_GET = do_PUT = do_POST = do_DELETE = do_HEAD = _forward


def main():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    with open(sys.argv[2] + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.replace(sys.argv[2] + ".tmp", sys.argv[2])
    server.serve_forever()


if __name__ == "__main__":
    main()
