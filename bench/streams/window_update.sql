UPDATE w SET v = v + 1 WHERE id % {{MOD}} = {{K}};
