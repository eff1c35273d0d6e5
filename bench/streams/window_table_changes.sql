-- the same net effect from the raw change feed of the window
SELECT sum(CASE WHEN _change_type IN ('insert', 'update_postimage') THEN v ELSE -v END) AS delta FROM table_changes('w', 2, {{LAST}});
