CREATE TABLE emp (id INT, dept STRING, salary INT)
