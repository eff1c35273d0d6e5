SELECT id, g, v, _commit_version FROM table_changes('src', 1, 1);
