"""Raw protocol bytes against `lakestream serve`: bad lengths and truncated
messages get a FATAL 08P01 ErrorResponse (never a crash or a huge
allocation), and the server keeps serving; SSLRequest is answered 'N';
Execute with a row limit suspends the portal (docs/server.md)."""
import socket
import struct

import pytest


def startup_packet(user="raw"):
    body = struct.pack("!i", 196608) + b"user\0" + user.encode() + b"\0database\0x\0\0"
    return struct.pack("!i", len(body) + 4) + body


def msg(kind, body=b""):
    return kind + struct.pack("!i", len(body) + 4) + body


def read_message(sock):
    head = b""
    while len(head) < 5:
        chunk = sock.recv(5 - len(head))
        if not chunk:
            return None, None
        head += chunk
    kind, length = head[:1], struct.unpack("!i", head[1:])[0]
    body = b""
    while len(body) < length - 4:
        chunk = sock.recv(length - 4 - len(body))
        assert chunk, "connection closed inside a message"
        body += chunk
    return kind, body


def read_until(sock, kind):
    seen = []
    while True:
        k, body = read_message(sock)
        assert k is not None, f"closed before {kind}; got {seen}"
        seen.append((k, body))
        if k == kind:
            return seen


def error_fields(body):
    fields = {}
    for part in body.split(b"\0"):
        if part:
            fields[part[:1].decode()] = part[1:].decode()
    return fields


def logged_in(server):
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    sock.sendall(startup_packet())
    read_until(sock, b"Z")
    return sock


def expect_fatal(sock, words):
    k, body = read_message(sock)
    assert k == b"E", (k, body)
    fields = error_fields(body)
    assert fields["C"] == "08P01" and fields["S"] == "FATAL", fields
    assert words in fields["M"], fields
    assert read_message(sock) == (None, None)  # the server closed the connection


def still_serving(server):
    sock = logged_in(server)
    sock.sendall(msg(b"Q", b"SELECT 41 + 1\0"))
    rows = [body for k, body in read_until(sock, b"Z") if k == b"D"]
    assert rows == [struct.pack("!hi", 1, 2) + b"42"]
    sock.close()


def test_ssl_request_answered_n_then_plain_startup(server):
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    sock.sendall(struct.pack("!ii", 8, 80877103))
    assert sock.recv(1) == b"N"
    sock.sendall(startup_packet())
    seen = read_until(sock, b"Z")
    kinds = [k for k, _ in seen]
    assert kinds[0] == b"R" and b"K" in kinds
    status = dict(body[:-1].split(b"\0", 1) for k, body in seen if k == b"S")
    assert status[b"server_version"] == b"16.0 (lakestream)"
    assert status[b"integer_datetimes"] == b"on" and status[b"DateStyle"] == b"ISO, MDY"
    assert seen[-1][1] == b"I"


def test_oversized_startup_packet_refused(server):
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    sock.sendall(struct.pack("!ii", 1 << 30, 196608))
    expect_fatal(sock, "invalid startup packet length")
    still_serving(server)


@pytest.mark.parametrize("length", [(1 << 30) + 1, 0x7FFFFFFF, 3])
def test_bad_message_length_refused(server, length):
    sock = logged_in(server)
    sock.sendall(b"Q" + struct.pack("!I", length) + b"SELECT 1")
    expect_fatal(sock, "invalid length")
    still_serving(server)


def test_truncated_bind_refused(server):
    sock = logged_in(server)
    sock.sendall(msg(b"P", b"\0SELECT $1::BIGINT\0\0\0"))
    # Bind claims one parameter of 100 bytes but the message ends first.
    sock.sendall(msg(b"B", b"\0\0\0\0\0\1" + struct.pack("!i", 100) + b"12"))
    k, _ = read_message(sock)
    assert k == b"1"  # ParseComplete
    expect_fatal(sock, "parameter value")
    still_serving(server)


def test_unknown_message_type_refused(server):
    sock = logged_in(server)
    sock.sendall(msg(b"y", b"junk"))
    expect_fatal(sock, "unknown message type 'y'")
    still_serving(server)


def test_execute_row_limit_suspends_portal(server):
    sock = logged_in(server)
    sock.sendall(msg(b"P", b"\0SELECT range FROM range(5)\0\0\0")
                 + msg(b"B", b"\0\0\0\0\0\0\0\0")
                 + msg(b"E", b"\0" + struct.pack("!i", 2))
                 + msg(b"E", b"\0" + struct.pack("!i", 2))
                 + msg(b"E", b"\0" + struct.pack("!i", 0))
                 + msg(b"S"))
    seen = read_until(sock, b"Z")
    kinds = b"".join(k for k, _ in seen)
    assert kinds == b"12DDsDDsDCZ", kinds
    values = [body[6:] for k, body in seen if k == b"D"]
    assert values == [b"0", b"1", b"2", b"3", b"4"]
    assert [body for k, body in seen if k == b"C"] == [b"SELECT 5\0"]


def test_error_in_extended_protocol_skips_to_sync(server):
    sock = logged_in(server)
    sock.sendall(msg(b"P", b"\0SELECT * FROM nosuch\0\0\0")
                 + msg(b"B", b"\0\0\0\0\0\0\0\0")
                 + msg(b"E", b"\0\0\0\0\0")
                 + msg(b"S"))
    seen = read_until(sock, b"Z")
    kinds = b"".join(k for k, _ in seen)
    assert kinds == b"12EZ", kinds  # Execute's error; nothing after it until Sync
    assert error_fields(seen[2][1])["C"] == "42P01"
    sock.close()


def test_empty_query_and_error_midway(server):
    sock = logged_in(server)
    sock.sendall(msg(b"Q", b"\0"))
    assert b"".join(k for k, _ in read_until(sock, b"Z")) == b"IZ"
    # The first statement's result is sent, the second fails, the third never runs.
    sock.sendall(msg(b"Q", b"SELECT 1; SELECT * FROM nosuch; SELECT 3\0"))
    seen = read_until(sock, b"Z")
    assert b"".join(k for k, _ in seen) == b"TDCEZ"
    assert error_fields(seen[3][1])["C"] == "42P01"
    sock.close()


def test_random_messages_never_crash_the_server(server):
    import random
    rng = random.Random(31)
    for _ in range(60):
        sock = logged_in(server)
        try:
            for _ in range(rng.randint(1, 4)):
                kind = bytes([rng.choice(b"PBDECHSQdcfp" + bytes([rng.randint(0, 255)]))])
                body = bytes(rng.randint(0, 255) for _ in range(rng.randint(0, 24)))
                sock.sendall(msg(kind, body))
            sock.sendall(msg(b"S"))
            sock.settimeout(2)
            while read_message(sock)[0] not in (None, b"Z"):
                pass
        except (BrokenPipeError, ConnectionResetError, socket.timeout, AssertionError):
            pass  # the server may close the connection on a protocol violation
        sock.close()
        assert server.proc.poll() is None, server.log_path.read_text()
    still_serving(server)


def test_describe_named_statement(server):
    sock = logged_in(server)
    sock.sendall(msg(b"P", b"s1\0SELECT $1::BIGINT AS a, 'x' AS b\0\0\0")
                 + msg(b"D", b"Ss1\0")
                 + msg(b"B", b"\0s1\0\0\0\0\1" + struct.pack("!i", 2) + b"41\0\0")
                 + msg(b"E", b"\0\0\0\0\0")
                 + msg(b"C", b"Ss1\0")
                 + msg(b"B", b"\0s1\0\0\0\0\0\0\0")
                 + msg(b"S"))
    seen = read_until(sock, b"Z")
    kinds = b"".join(k for k, _ in seen)
    # ParseComplete, ParameterDescription, RowDescription, BindComplete, DataRow,
    # CommandComplete, CloseComplete, then Bind of the closed statement fails.
    assert kinds == b"1tT2DC3EZ", kinds
    assert seen[1][1] == struct.pack("!hi", 1, 25)  # one parameter, text when unspecified
    row_description = seen[2][1]
    assert b"a\0" in row_description and struct.pack("!i", 20) in row_description  # int8
    assert seen[4][1] == struct.pack("!hi", 2, 2) + b"41" + struct.pack("!i", 1) + b"x"
    assert error_fields(seen[7][1])["C"] == "26000"
    sock.close()


def extended(sql):
    """Parse/Bind/Describe/Execute/Sync of `sql`, unnamed, no parameters."""
    return (msg(b"P", b"\0" + sql.encode() + b"\0\0\0") + msg(b"B", b"\0\0\0\0\0\0\0\0") + msg(b"D", b"P\0") +
            msg(b"E", b"\0\0\0\0\0") + msg(b"S"))


def test_copy_in_the_extended_protocol(server):
    sock = logged_in(server)
    sock.sendall(msg(b"Q", b"CREATE TABLE c (a INT, b VARCHAR)\0"))
    read_until(sock, b"Z")
    # COPY FROM STDIN: the client sends everything up to Sync, then the data after CopyInResponse.
    sock.sendall(extended("COPY c FROM STDIN"))
    seen = read_until(sock, b"G")  # CopyInResponse
    assert [k for k, _ in seen] == [b"1", b"2", b"n", b"G"], seen  # Describe of a COPY: NoData
    # The Sync sent before the data is ignored inside COPY IN (as in PostgreSQL); libpq sends one after CopyDone.
    sock.sendall(msg(b"d", b"1\tone\n2\t\\N\n") + msg(b"c") + msg(b"S"))
    seen = read_until(sock, b"Z")
    assert (b"C", b"COPY 2\0") in seen, seen
    # COPY TO STDOUT: CopyOutResponse, CopyData, CopyDone, CommandComplete.
    sock.sendall(extended("COPY c TO STDOUT"))
    seen = read_until(sock, b"Z")
    kinds = [k for k, _ in seen]
    assert kinds[:4] == [b"1", b"2", b"n", b"H"] and kinds[-3:] == [b"c", b"C", b"Z"], kinds
    assert b"".join(body for k, body in seen if k == b"d") == b"1\tone\n2\t\\N\n"
    sock.close()


def test_function_call_message_is_refused_and_the_session_goes_on(server):
    sock = logged_in(server)
    # FunctionCall: function oid 1598 (random), no argument formats, one argument of 4 bytes, text result.
    sock.sendall(msg(b"F", struct.pack("!ihhi", 1598, 0, 1, 4) + b"abcd" + struct.pack("!h", 0)))
    seen = read_until(sock, b"Z")
    errors = [error_fields(body) for k, body in seen if k == b"E"]
    assert errors and errors[0]["C"] == "0A000" and "function-call message" in errors[0]["M"], seen
    assert seen[-1] == (b"Z", b"I")
    sock.sendall(msg(b"Q", b"SELECT 41 + 1\0"))
    rows = [body for k, body in read_until(sock, b"Z") if k == b"D"]
    assert rows == [struct.pack("!hi", 1, 2) + b"42"]
    sock.close()


def test_text_that_is_not_utf8_is_refused_everywhere_it_comes_in(server):
    """A Latin-1 byte in a query, a bind parameter or COPY FROM STDIN data is
    refused with an error naming it; nothing is stored, the session goes on."""
    sock = logged_in(server)
    sock.sendall(msg(b"Q", b"CREATE TABLE u8 (s VARCHAR)\0"))
    read_until(sock, b"Z")
    # The query text itself.
    sock.sendall(msg(b"Q", b"INSERT INTO u8 VALUES ('caf\xe9')\0"))
    seen = read_until(sock, b"Z")
    errors = [error_fields(body) for k, body in seen if k == b"E"]
    assert errors and "not valid UTF-8 (byte 0xE9" in errors[0]["M"], seen
    # A text parameter of the extended protocol.
    sock.sendall(msg(b"P", b"\0INSERT INTO u8 VALUES ($1)\0\0\0")
                 + msg(b"B", b"\0\0" + struct.pack("!hhi", 0, 1, 4) + b"caf\xe9" + struct.pack("!h", 0))
                 + msg(b"E", b"\0\0\0\0\0") + msg(b"S"))
    seen = read_until(sock, b"Z")
    errors = [error_fields(body) for k, body in seen if k == b"E"]
    assert errors and "parameter $1 is not valid UTF-8 (byte 0xE9" in errors[0]["M"], seen
    # COPY FROM STDIN data.
    sock.sendall(msg(b"Q", b"COPY u8 FROM STDIN\0"))
    read_until(sock, b"G")
    sock.sendall(msg(b"d", b"ok\ncaf\xe9\n") + msg(b"c"))
    seen = read_until(sock, b"Z")
    errors = [error_fields(body) for k, body in seen if k == b"E"]
    assert errors and errors[0]["C"] == "22021" and "not valid UTF-8" in errors[0]["M"], seen
    sock.sendall(msg(b"Q", b"SELECT count(*) FROM u8\0"))
    rows = [body for k, body in read_until(sock, b"Z") if k == b"D"]
    assert rows == [struct.pack("!hi", 1, 1) + b"0"]
    sock.close()
