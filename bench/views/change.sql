-- 1,000 source rows change (ids {{LO}}..{{LO}}+999: one row in each group)
UPDATE src SET v = v + 1.00 WHERE id >= {{LO}} AND id < {{LO}} + 1000;
