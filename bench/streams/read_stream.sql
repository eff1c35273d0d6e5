SELECT id, g, v, __commit_version FROM s;
