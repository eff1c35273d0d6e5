"""TLS for `lakestream serve` (docs/server.md): a certificate made here by
the openssl command; psycopg verifies it (sslmode=verify-full), queries and
SCRAM logins run encrypted, --tls-required turns plain sessions away, and
a client that sends bytes after its SSLRequest without waiting is cut off."""
import socket
import struct
import subprocess

import psycopg
import pytest
from conftest import Server


@pytest.fixture
def certificate(tmp_path):
    cert, key = tmp_path / "server.crt", tmp_path / "server.key"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)
    return cert, key


def connect(server, cert, **kw):
    return psycopg.connect(host="127.0.0.1", port=server.port, user="tester", dbname="x", autocommit=True,
                           sslrootcert=str(cert), **kw)


def test_verified_tls_session_with_scram(tmp_path, certificate):
    cert, key = certificate
    pw = tmp_path / "passwords"
    pw.write_text("tester:s3cret\n")
    pw.chmod(0o600)
    s = Server(tmp_path, "--tls-cert", str(cert), "--tls-key", str(key), "--password-file", str(pw))
    try:
        with connect(s, cert, sslmode="verify-full", password="s3cret") as con:
            assert con.pgconn.ssl_in_use
            con.execute("CREATE TABLE t (id BIGINT, s VARCHAR)")
            con.execute("INSERT INTO t SELECT range, repeat('x', 100) FROM range(20000)")  # many TLS records
            assert con.execute("SELECT count(*), sum(length(s)) FROM t").fetchone() == (20000, 2000000)
            with con.cursor().copy("COPY t FROM STDIN") as copy:
                copy.write("".join(f"{i}\tcopied\n" for i in range(1000)))
            assert con.execute("SELECT count(*) FROM t WHERE s = 'copied'").fetchone() == (1000,)
        # Without --tls-required a plain session is still let in.
        with connect(s, cert, sslmode="disable", password="s3cret") as con:
            assert not con.pgconn.ssl_in_use
            assert con.execute("SELECT count(*) FROM t").fetchone() == (21000,)
        with pytest.raises(psycopg.OperationalError, match="password authentication failed"):
            connect(s, cert, sslmode="require", password="wrong")
    finally:
        s.stop()


def test_tls_required_turns_plain_sessions_away(tmp_path, certificate):
    cert, key = certificate
    s = Server(tmp_path, "--tls-cert", str(cert), "--tls-key", str(key), "--tls-required")
    try:
        with pytest.raises(psycopg.OperationalError, match="TLS connections only"):
            connect(s, cert, sslmode="disable")
        with connect(s, cert, sslmode="require") as con:
            assert con.execute("SELECT 42").fetchone() == (42,)
    finally:
        s.stop()


def test_bytes_sent_before_the_handshake_end_the_session(tmp_path, certificate):
    cert, key = certificate
    s = Server(tmp_path, "--tls-cert", str(cert), "--tls-key", str(key))
    try:
        with socket.create_connection(("127.0.0.1", s.port)) as raw:
            ssl_request = struct.pack("!ii", 8, 80877103)
            body = struct.pack("!i", 196608) + b"user\0mallory\0\0"
            raw.sendall(ssl_request + struct.pack("!i", len(body) + 4) + body)  # plaintext injected after the request
            raw.settimeout(5)
            # The server refuses to go on: no 'S', a FATAL 08P01 in plain text, and the connection closes.
            rest = b""
            while chunk := raw.recv(4096):
                rest += chunk
            assert rest[:1] == b"E" and b"08P01" in rest and b"unencrypted data after the SSL request" in rest
        # The server keeps serving others.
        with connect(s, cert, sslmode="require") as con:
            assert con.execute("SELECT 1").fetchone() == (1,)
    finally:
        s.stop()


def test_bad_certificate_files_are_named(tmp_path, certificate):
    cert, key = certificate
    out = subprocess.run([Server.__init__.__globals__["SHELL"], "serve", "--tls-cert", str(key), "--tls-key", str(key)],
                         capture_output=True, text=True)
    assert out.returncode == 1 and "cannot use the TLS certificate " + str(key) in out.stderr
    out = subprocess.run([Server.__init__.__globals__["SHELL"], "serve", "--tls-cert", str(cert)],
                         capture_output=True, text=True)
    assert out.returncode == 2 and "--tls-cert and --tls-key go together" in out.stderr
