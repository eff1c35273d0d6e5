"""Users kept as the database's secrets (CREATE/ALTER/DROP USER, SHOW USERS;
docs/server.md), logging in to `lakestream serve` with psycopg."""
import subprocess

import psycopg
import pytest
from conftest import SHELL, Server


def login(server, user, password=None):
    return psycopg.connect(host="127.0.0.1", port=server.port, user=user, password=password, dbname="lake",
                           autocommit=True)


def make_users(tmp_path, sql):
    subprocess.run([SHELL, str(tmp_path / "db"), "-c", sql], check=True, capture_output=True)


def test_users_log_in_with_their_password_only(tmp_path):
    make_users(tmp_path, "CREATE USER alice WITH PASSWORD 'al1ce-pw'; "
                         "CREATE PERSISTENT SECRET bob (TYPE pg_user, PASSWORD 'b0b-pw', ROLE 'read_only')")
    # Only a SCRAM verifier is kept: the password is in no file of the database.
    for path in (tmp_path / "db").rglob("*"):
        if path.is_file():
            assert b"al1ce-pw" not in path.read_bytes() and b"b0b-pw" not in path.read_bytes(), path
    s = Server(tmp_path)
    try:
        with login(s, "alice", "al1ce-pw") as con:
            assert con.execute("SHOW USERS").fetchall() == [("alice", False, True, "local_file"),
                                                            ("bob", True, True, "local_file")]
            shown = con.execute("SELECT secret_string FROM lakestream_secrets() ORDER BY name").fetchall()
            assert all("verifier=redacted" in row[0] and "SCRAM" not in row[0] for row in shown), shown
        for user, password in [("alice", "b0b-pw"), ("alice", None), ("bob", "al1ce-pw"), ("carol", "al1ce-pw")]:
            with pytest.raises(psycopg.OperationalError, match="password authentication failed|no password"):
                login(s, user, password)
    finally:
        s.stop()


def test_read_only_user_is_refused_writes_naming_it(tmp_path):
    make_users(tmp_path, "CREATE USER writer PASSWORD 'w'; CREATE USER reader PASSWORD 'r' READ ONLY")
    s = Server(tmp_path)
    try:
        with login(s, "writer", "w") as con:
            con.execute("CREATE TABLE t (a INT)")
            con.execute("INSERT INTO t VALUES (1)")
        with login(s, "reader", "r") as con:
            assert con.execute("SELECT a FROM t").fetchall() == [(1,)]
            assert con.execute("SHOW transaction_read_only").fetchone() == ("on",)
            with pytest.raises(psycopg.errors.ReadOnlySqlTransaction,
                               match="user reader is read-only.*ALTER USER reader READ WRITE"):
                con.execute("INSERT INTO t VALUES (2)")
            with pytest.raises(psycopg.errors.ReadOnlySqlTransaction, match="user reader"):
                con.execute("CREATE USER sneaky PASSWORD 'x'")
            with pytest.raises(psycopg.errors.ReadOnlySqlTransaction, match="user reader"):
                with con.cursor().copy("COPY t FROM STDIN") as copy:
                    copy.write("2\n")
        # Made a writer, its next session writes.
        with login(s, "writer", "w") as con:
            con.execute("ALTER USER reader READ WRITE")
        with login(s, "reader", "r") as con:
            con.execute("INSERT INTO t VALUES (3)")
            assert con.execute("SELECT a FROM t ORDER BY a").fetchall() == [(1,), (3,)]
    finally:
        s.stop()


def test_users_changed_while_the_server_runs(tmp_path):
    # No user at start: trust (loopback). The first CREATE USER makes every later login need a password.
    s = Server(tmp_path)
    try:
        with login(s, "anyone") as con:
            con.execute("CREATE USER admin PASSWORD 'adm1n'")
            con.execute("CREATE USER temp PASSWORD 'one'")
        with pytest.raises(psycopg.OperationalError):
            login(s, "anyone")
        with login(s, "admin", "adm1n") as admin:
            with login(s, "temp", "one") as temp:
                admin.execute("ALTER USER temp PASSWORD 'two'")
                with pytest.raises(psycopg.OperationalError, match="password authentication failed"):
                    login(s, "temp", "one")
                login(s, "temp", "two").close()
                admin.execute("DROP USER temp")
                # A session of a dropped user goes on (as in PostgreSQL); new logins fail.
                assert temp.execute("SELECT 1").fetchone() == (1,)
            with pytest.raises(psycopg.OperationalError, match="password authentication failed"):
                login(s, "temp", "two")
            with pytest.raises(psycopg.errors.UndefinedObject, match="User temp does not exist; SHOW USERS"):
                admin.execute("DROP USER temp")
            admin.execute("DROP USER IF EXISTS temp")
            with pytest.raises(psycopg.errors.DuplicateObject, match="ALTER USER admin PASSWORD"):
                admin.execute("CREATE USER admin PASSWORD 'x'")
    finally:
        s.stop()


def test_password_file_and_database_users_together(tmp_path):
    make_users(tmp_path, "CREATE USER dbuser PASSWORD 'from-db'; CREATE USER both PASSWORD 'from-db'")
    pw = tmp_path / "passwords"
    pw.write_text("fileuser:from-file\nboth:from-file\n")
    pw.chmod(0o600)
    s = Server(tmp_path, "--password-file", str(pw))
    try:
        login(s, "dbuser", "from-db").close()
        login(s, "fileuser", "from-file").close()
        login(s, "both", "from-file").close()  # the file wins
        with pytest.raises(psycopg.OperationalError, match="password authentication failed"):
            login(s, "both", "from-db")
    finally:
        s.stop()


def test_user_statements_are_checked(tmp_path):
    s = Server(tmp_path)
    try:
        with login(s, "x") as con:
            with pytest.raises(psycopg.errors.InvalidParameterValue, match="no password"):
                con.execute("CREATE USER nopw")
            with pytest.raises(psycopg.Error, match="unknown ROLE 'admin'"):
                con.execute("CREATE SECRET u (TYPE pg_user, PASSWORD 'p', ROLE 'admin')")
            con.execute("CREATE SECRET s3x (TYPE s3, KEY_ID 'k', SECRET 's')")
            with pytest.raises(psycopg.Error, match="s3 secret, not a user"):
                con.execute("CREATE USER s3x PASSWORD 'p'")
            with pytest.raises(psycopg.Error, match="malformed"):
                con.execute("CREATE USER v PASSWORD 'SCRAM-SHA-256$4096:abc'")
            verifier = subprocess.run([SHELL, "serve", "--scram-verifier"], input="pre-hashed\n", capture_output=True,
                                      text=True, check=True).stdout.strip()
            con.execute(f"CREATE USER pre PASSWORD '{verifier}'")
        login(s, "pre", "pre-hashed").close()
    finally:
        s.stop()


def test_user_names_never_reach_the_store_as_paths(tmp_path):
    make_users(tmp_path, "CREATE USER alice PASSWORD 'al1ce-pw'")
    store = tmp_path / "db" / "_lakestream" / "secrets"
    # A file outside the store that would pass for alice's if a name could climb out of it.
    (tmp_path / "db" / "evil.json").write_text((store / "alice.json").read_text())
    s = Server(tmp_path)
    try:
        for user in ["../../evil", "../secrets/alice", "alice.json", "al ice"]:
            with pytest.raises(psycopg.OperationalError, match="password authentication failed"):
                login(s, user, "al1ce-pw")
        # A damaged user file: that user cannot log in, the server says why, the others still can.
        (store / "bob.json").write_text("{not json")
        with pytest.raises(psycopg.OperationalError, match="password authentication failed"):
            login(s, "bob", "b0b-pw")
        assert "user bob cannot log in" in s.log_path.read_text()
        login(s, "alice", "al1ce-pw").close()
    finally:
        s.stop()


def test_a_server_reachable_from_other_machines_needs_users(tmp_path):
    refused = subprocess.run([SHELL, "serve", str(tmp_path / "db"), "--listen", "0.0.0.0:0"], capture_output=True,
                             text=True, timeout=30)
    assert refused.returncode == 2 and "CREATE USER" in refused.stderr, refused.stderr
    make_users(tmp_path, "CREATE USER remote PASSWORD 'r'")
    proc = subprocess.Popen([SHELL, "serve", str(tmp_path / "db"), "--listen", "0.0.0.0:0"], stderr=subprocess.PIPE,
                            text=True)
    try:
        line = proc.stderr.readline()
        assert "listening on 0.0.0.0:" in line, line
        port = int(line.split("0.0.0.0:")[1].split()[0])
        with psycopg.connect(host="127.0.0.1", port=port, user="remote", password="r", dbname="x") as con:
            con.execute("DROP USER remote")
            con.commit()
        # Every user dropped: logins stay required off loopback (no fallback to trust).
        with pytest.raises(psycopg.OperationalError, match="password authentication failed"):
            psycopg.connect(host="127.0.0.1", port=port, user="anyone", password="x", dbname="x")
    finally:
        proc.terminate()
        proc.wait(timeout=10)
