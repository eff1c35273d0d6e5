CREATE TABLE customers (id INT, name STRING, city STRING)
