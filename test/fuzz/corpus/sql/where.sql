CREATE TABLE w (id INT, cat STRING, qty INT, price DOUBLE)
