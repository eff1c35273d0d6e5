"""Schemas through the Zettapark facade (docs/sql-schemas.md): public.orders
is the default schema's orders, as in Snowflake; lists name the parts."""
from conftest import rows


def test_public_schema_and_list_names(session):
    session.sql("CREATE TABLE orders (id INT, amount INT)").collect()
    session.sql("INSERT INTO orders VALUES (1, 10)").collect()
    assert rows(session.table("public.orders")) == [(1, 10)]
    assert rows(session.table(["lake", "public", "orders"])) == [(1, 10)]
    session.sql("CREATE SCHEMA sales").collect()
    session.create_dataframe([(2, 20)], schema=["id", "amount"]).write.save_as_table("sales.orders")
    assert rows(session.table("sales.orders")) == [(2, 20)]
    assert rows(session.table("orders")) == [(1, 10)]
    session.table("sales.orders").update({"amount": 21})
    assert rows(session.table(["sales", "orders"])) == [(2, 21)]
