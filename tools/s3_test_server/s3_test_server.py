#!/usr/bin/env python3
"""A small S3-compatible server for lakestream's object storage tests.

Standard library only (CI has no network beyond the Debian mirror). Objects
live as files under ROOT/<bucket>/<key>; a test fills a bucket by copying
files there. Path-style URLs only (http://host:port/bucket/key).

Implements: GET object (with Range), HEAD, PUT (with If-None-Match: *, which
it enforces atomically), DELETE, ListObjectsV2 (prefix, delimiter, max-keys,
continuation tokens), multipart upload (create, upload part, complete,
abort). Every request must carry a valid AWS SigV4 Authorization header for
--key-id/--secret (the signature is recomputed and checked), else 403.

Test hooks (no authentication), under /__control__/:
  POST /__control__/fail?status=500&count=2[&method=GET][&match=substr][&code=SlowDown]
       the next `count` matching requests answer `status` with S3 error `code`
  POST /__control__/reset     clears faults and counters
  GET  /__control__/stats     {"requests": N, "by_method": {...}, "bytes_out": N}
Options: --no-conditional makes PUT ignore If-None-Match (as s3rver does);
--reject-conditional answers it with 501 NotImplemented.

Usage: s3_test_server.py --root DIR [--port 0] [--port-file F] [--key-id K --secret S]
Prints "PORT <n>" on stdout once listening (and writes it to --port-file).
"""
import argparse
import hashlib
import hmac
import json
import os
import sys
import threading
import time
import urllib.parse
import uuid
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from xml.sax.saxutils import escape

LOCK = threading.RLock()  # re-entered: a refusal sent while the lock is held counts its bytes
STATE = {"faults": [], "requests": 0, "by_method": {}, "bytes_out": 0, "uploads": {}}


def iso(ts):
    return time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(ts))


def error_xml(code, message, resource=""):
    return ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>%s</Code><Message>%s</Message>"
            "<Resource>%s</Resource></Error>" % (escape(code), escape(message), escape(resource))).encode()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "s3-test-server"
    # Headers and body go out in separate writes: with Nagle's algorithm the
    # body of a small response waits for the client's delayed ACK (up to
    # 40 ms a request), which real object stores do not add.
    disable_nagle_algorithm = True

    def log_message(self, fmt, *args):  # quiet
        if self.server.verbose:
            sys.stderr.write("s3_test_server: " + (fmt % args) + "\n")

    # ---- plumbing
    def send(self, status, body=b"", headers=None, head_only=False):
        self.send_response(status)
        headers = headers or {}
        if "Content-Length" not in headers:
            headers["Content-Length"] = str(len(body))
        for k, v in headers.items():
            self.send_header(k, v)
        self.end_headers()
        if body and not head_only and self.command != "HEAD":
            self.wfile.write(body)
            with LOCK:
                STATE["bytes_out"] += len(body)

    def fail(self, status, code, message, resource=""):
        self.send(status, error_xml(code, message, resource), {"Content-Type": "application/xml"})

    def read_body(self):
        n = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(n) if n else b""

    def check_signature(self, body):
        auth = self.headers.get("Authorization", "")
        if not auth.startswith("AWS4-HMAC-SHA256 "):
            return "AccessDenied", "request is not signed with AWS SigV4"
        fields = dict(p.strip().split("=", 1) for p in auth[len("AWS4-HMAC-SHA256 "):].split(","))
        cred = fields.get("Credential", "").split("/")
        if len(cred) != 5 or cred[0] != self.server.key_id:
            return "InvalidAccessKeyId", "The AWS Access Key Id you provided does not exist in our records."
        signed = fields.get("SignedHeaders", "").split(";")
        amz_date = self.headers.get("x-amz-date", "")
        payload = self.headers.get("x-amz-content-sha256", "")
        if payload != "UNSIGNED-PAYLOAD" and payload != hashlib.sha256(body).hexdigest():
            return "XAmzContentSHA256Mismatch", "The provided 'x-amz-content-sha256' header does not match"
        url = urllib.parse.urlsplit(self.path)
        pairs = urllib.parse.parse_qsl(url.query, keep_blank_values=True)
        query = "&".join("%s=%s" % (urllib.parse.quote(k, safe="-_.~"), urllib.parse.quote(v, safe="-_.~"))
                         for k, v in sorted(pairs))
        headers = "".join("%s:%s\n" % (h, " ".join((self.headers.get(h) or "").split())) for h in signed)
        canonical = "\n".join([self.command, url.path, query, headers, ";".join(signed), payload])
        scope = "/".join(cred[1:])
        to_sign = "\n".join(["AWS4-HMAC-SHA256", amz_date, scope, hashlib.sha256(canonical.encode()).hexdigest()])
        key = ("AWS4" + self.server.secret).encode()
        for part in cred[1:]:
            key = hmac.new(key, part.encode(), hashlib.sha256).digest()
        expected = hmac.new(key, to_sign.encode(), hashlib.sha256).hexdigest()
        if not hmac.compare_digest(expected, fields.get("Signature", "")):
            return "SignatureDoesNotMatch", "The request signature we calculated does not match the signature you provided."
        return None

    def injected_fault(self):
        with LOCK:
            for f in STATE["faults"]:
                if f["count"] <= 0:
                    continue
                if f["method"] and f["method"] != self.command:
                    continue
                if f["match"] and f["match"] not in self.path:
                    continue
                f["count"] -= 1
                return f
        return None

    def handle_any(self):
        url = urllib.parse.urlsplit(self.path)
        if url.path.startswith("/__control__/"):
            return self.control(url)
        body = self.read_body() if self.command in ("PUT", "POST") else b""
        with LOCK:
            STATE["requests"] += 1
            STATE["by_method"][self.command] = STATE["by_method"].get(self.command, 0) + 1
        fault = self.injected_fault()
        if fault:
            return self.fail(fault["status"], fault["code"], "injected fault", url.path)
        bad = self.check_signature(body)
        if bad:
            return self.fail(403, bad[0], bad[1], url.path)
        parts = urllib.parse.unquote(url.path).lstrip("/").split("/", 1)
        bucket = parts[0]
        key = parts[1] if len(parts) > 1 else ""
        query = dict(urllib.parse.parse_qsl(url.query, keep_blank_values=True))
        bucket_dir = os.path.join(self.server.root, bucket)
        if not bucket or not os.path.isdir(bucket_dir):
            return self.fail(404, "NoSuchBucket", "The specified bucket does not exist", "/" + bucket)
        if ".." in key.split("/"):
            return self.fail(400, "InvalidArgument", "key with '..'", url.path)
        if not key:
            if self.command == "GET":
                return self.list_objects(bucket, bucket_dir, query)
            return self.fail(405, "MethodNotAllowed", "bucket operation not supported", url.path)
        path = os.path.join(bucket_dir, key)
        if self.command in ("GET", "HEAD"):
            return self.get(path, url.path)
        if self.command == "PUT":
            return self.put(path, url.path, body, query)
        if self.command == "POST":
            return self.post(path, url.path, body, query)
        if self.command == "DELETE":
            if "uploadId" in query:
                with LOCK:
                    STATE["uploads"].pop(query["uploadId"], None)
                return self.send(204)
            if os.path.isfile(path):
                os.remove(path)
            return self.send(204)
        return self.fail(405, "MethodNotAllowed", "unsupported method", url.path)

    do_GET = do_HEAD = do_PUT = do_POST = do_DELETE = handle_any

    def control(self, url):
        self.read_body()
        q = dict(urllib.parse.parse_qsl(url.query))
        if url.path == "/__control__/fail":
            with LOCK:
                STATE["faults"].append({"status": int(q.get("status", "500")), "count": int(q.get("count", "1")),
                                        "method": q.get("method", ""), "match": q.get("match", ""),
                                        "code": q.get("code", "InternalError")})
            return self.send(200, b"ok")
        if url.path == "/__control__/reset":
            with LOCK:
                STATE.update({"faults": [], "requests": 0, "by_method": {}, "bytes_out": 0})
            return self.send(200, b"ok")
        if url.path == "/__control__/stats":
            with LOCK:
                body = json.dumps({k: STATE[k] for k in ("requests", "by_method", "bytes_out")}).encode()
            return self.send(200, body, {"Content-Type": "application/json"})
        return self.fail(404, "NoSuchControl", url.path)

    # ---- objects
    def get(self, path, resource):
        if not os.path.isfile(path):
            return self.fail(404, "NoSuchKey", "The specified key does not exist.", resource)
        st = os.stat(path)
        size = st.st_size
        headers = {"Last-Modified": formatdate(st.st_mtime, usegmt=True), "ETag": '"%x-%x"' % (st.st_mtime_ns, size),
                   "Accept-Ranges": "bytes", "Content-Type": "application/octet-stream"}
        rng = self.headers.get("Range")
        start, end, status = 0, size - 1, 200
        if rng and rng.startswith("bytes="):
            a, b = rng[6:].split("-", 1)
            if a == "":
                start, end = max(0, size - int(b)), size - 1
            else:
                start, end = int(a), (int(b) if b else size - 1)
            end = min(end, size - 1)
            if start >= size:
                return self.fail(416, "InvalidRange", "The requested range is not satisfiable", resource)
            status = 206
            headers["Content-Range"] = "bytes %d-%d/%d" % (start, end, size)
        if self.command == "HEAD":
            headers["Content-Length"] = str(size)
            return self.send(200, b"", headers, head_only=True)
        # The body goes from the file to the socket with sendfile: a range of
        # 80 MB read into Python first would take most of a scan's time,
        # which no real object store spends.
        length = end - start + 1
        headers["Content-Length"] = str(length)
        with open(path, "rb") as f:
            self.send(status, b"", headers)
            self.wfile.flush()
            sent = 0
            while sent < length:
                n = os.sendfile(self.connection.fileno(), f.fileno(), start + sent, length - sent)
                if n == 0:
                    break
                sent += n
        with LOCK:
            STATE["bytes_out"] += sent

    def write_object(self, path, data):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = path + ".__upload__" + uuid.uuid4().hex
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)

    def put(self, path, resource, body, query):
        if "partNumber" in query:
            with LOCK:
                parts = STATE["uploads"].get(query.get("uploadId"))
                if parts is None:
                    return self.fail(404, "NoSuchUpload", "The specified upload does not exist.", resource)
                parts[int(query["partNumber"])] = body
            return self.send(200, b"", {"ETag": '"%s"' % hashlib.md5(body).hexdigest()})
        if self.headers.get("If-None-Match") == "*" and not self.server.no_conditional:
            if self.server.reject_conditional:
                return self.fail(501, "NotImplemented", "A header you provided implies functionality that is not implemented", resource)
            with LOCK:  # check and create as one step: exactly one racing writer wins
                if os.path.exists(path):
                    return self.fail(412, "PreconditionFailed", "At least one of the pre-conditions you specified did not hold", resource)
                self.write_object(path, body)
        else:
            self.write_object(path, body)
        return self.send(200, b"", {"ETag": '"%s"' % hashlib.md5(body).hexdigest()})

    def post(self, path, resource, body, query):
        if "uploads" in query:
            upload = uuid.uuid4().hex
            with LOCK:
                STATE["uploads"][upload] = {}
            xml = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><InitiateMultipartUploadResult><Bucket>b</Bucket>"
                   "<Key>%s</Key><UploadId>%s</UploadId></InitiateMultipartUploadResult>" % (escape(resource), upload))
            return self.send(200, xml.encode(), {"Content-Type": "application/xml"})
        if "uploadId" in query:
            with LOCK:
                parts = STATE["uploads"].pop(query["uploadId"], None)
            if parts is None:
                return self.fail(404, "NoSuchUpload", "The specified upload does not exist.", resource)
            self.write_object(path, b"".join(parts[n] for n in sorted(parts)))
            xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><CompleteMultipartUploadResult><Key>%s</Key></CompleteMultipartUploadResult>" % escape(resource)
            return self.send(200, xml.encode(), {"Content-Type": "application/xml"})
        return self.fail(400, "InvalidRequest", "unsupported POST", resource)

    def list_objects(self, bucket, bucket_dir, query):
        prefix = query.get("prefix", "")
        delimiter = query.get("delimiter", "")
        max_keys = min(int(query.get("max-keys", "1000")), self.server.max_keys)
        after = query.get("continuation-token", "") or query.get("start-after", "")
        # Walk only the folder the prefix lies in (a long _delta_log listing
        # would otherwise walk the whole bucket on every page).
        start_dir = os.path.join(bucket_dir, *prefix.rsplit("/", 1)[0].split("/")) if "/" in prefix else bucket_dir
        keys = []
        for dirpath, _, files in os.walk(start_dir):
            for name in files:
                if ".__upload__" in name:
                    continue
                full = os.path.join(dirpath, name)
                key = os.path.relpath(full, bucket_dir).replace(os.sep, "/")
                if key.startswith(prefix) and (not after or key > after or delimiter):
                    keys.append(key)
        keys.sort()
        entries = []  # (sort key, xml)
        seen_prefixes = set()
        for k in keys:
            if len(entries) > max_keys and not delimiter:
                break  # one past the page: enough to say the listing is truncated
            rest = k[len(prefix):]
            if delimiter and delimiter in rest:
                cp = prefix + rest.split(delimiter, 1)[0] + delimiter
                if cp in seen_prefixes:
                    continue
                seen_prefixes.add(cp)
                entries.append((cp, "<CommonPrefixes><Prefix>%s</Prefix></CommonPrefixes>" % escape(cp)))
            else:
                st = os.stat(os.path.join(bucket_dir, k))
                entries.append((k, "<Contents><Key>%s</Key><LastModified>%s</LastModified><Size>%d</Size>"
                                   "<StorageClass>STANDARD</StorageClass></Contents>" % (escape(k), iso(st.st_mtime), st.st_size)))
        entries = [e for e in entries if e[0] > after] if after else entries
        page, rest = entries[:max_keys], entries[max_keys:]
        xml = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?><ListBucketResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">",
               "<Name>%s</Name><Prefix>%s</Prefix><KeyCount>%d</KeyCount><MaxKeys>%d</MaxKeys>" % (escape(bucket), escape(prefix), len(page), max_keys),
               "<IsTruncated>%s</IsTruncated>" % ("true" if rest else "false")]
        if rest:
            xml.append("<NextContinuationToken>%s</NextContinuationToken>" % escape(page[-1][0]))
        xml.extend(e[1] for e in page)
        xml.append("</ListBucketResult>")
        return self.send(200, "".join(xml).encode(), {"Content-Type": "application/xml"})


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", required=True)
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--port-file")
    ap.add_argument("--key-id", default="test-key")
    ap.add_argument("--secret", default="test-secret")
    ap.add_argument("--max-keys", type=int, default=1000, help="page size cap (small values test continuation)")
    ap.add_argument("--no-conditional", action="store_true")
    ap.add_argument("--reject-conditional", action="store_true")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    server.root = os.path.abspath(args.root)
    server.key_id, server.secret = args.key_id, args.secret
    server.max_keys = args.max_keys
    server.no_conditional, server.reject_conditional = args.no_conditional, args.reject_conditional
    server.verbose = args.verbose
    port = server.server_address[1]
    if args.port_file:
        with open(args.port_file + ".tmp", "w") as f:
            f.write(str(port))
        os.replace(args.port_file + ".tmp", args.port_file)
    print("PORT %d" % port, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
