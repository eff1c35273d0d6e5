"""checkpointLocation: the query's metadata in one JSON file.

    <checkpointLocation>/lakestream_query.json
    { "format": 1, "id": <12 hex>, "database": <abs path>, "definition": {
        "source": {...}, "query": <normalized SQL>, "sink": {...}, "outputMode": ... },
      "objects": {"stream": ..., "view": ..., "staging": ..., "staging_stream": ..., "sink": ..., "batch": ...},
      "objects_created": bool, "kafka_options": {...},
      "last_batch_id": <int, -1 before the first>, "foreach_completed": <batch id or -1> }

The progress itself is not here: it is the hidden table stream's offset
(and the hidden sink's position), which the engine moves atomically with
the statements that consume it. The file names those objects, so a restart
with the same checkpoint continues with them; batch ids and the
foreachBatch completion mark are the only progress kept here.

Written with a temporary file, fsync and rename, so a kill leaves the old
file or the new one.
"""

import json
import os
import uuid

FILE_NAME = "lakestream_query.json"
PREFIX = "__lakestream_query_"


def object_names(query_id):
    p = PREFIX + query_id + "_"
    return {"stream": p + "stream", "view": p + "view", "staging": p + "staging",
            "staging_stream": p + "staging_stream", "sink": p + "sink", "batch": p + "batch"}


class Checkpoint:
    def __init__(self, location, data):
        self.location = location
        self.path = os.path.join(location, FILE_NAME)
        self.data = data

    @classmethod
    def open(cls, location, database, definition, errors):
        """The checkpoint at ``location``: loaded when it exists (its definition
        must match), else a new one (not yet written)."""
        location = os.path.abspath(location)
        path = os.path.join(location, FILE_NAME)
        if os.path.exists(path):
            try:
                with open(path) as f:
                    data = json.load(f)
            except (OSError, ValueError) as e:
                raise errors("checkpoint %s cannot be read (%s); restore it, or use a new checkpointLocation to "
                             "start the query over" % (path, e))
            if data.get("format") != 1:
                raise errors("checkpoint %s has an unknown format %r; use a new checkpointLocation"
                             % (path, data.get("format")))
            if os.path.abspath(data.get("database", "")) != os.path.abspath(database):
                raise errors("checkpoint %s belongs to a query on database %s, not %s; use a new checkpointLocation "
                             "for this database" % (location, data.get("database"), database))
            old = data.get("definition", {})
            for key, what in (("source", "source"), ("sink", "sink"), ("outputMode", "output mode"),
                              ("query", "query")):
                if old.get(key) != definition.get(key):
                    raise errors(
                        "checkpoint %s was written by a query with another %s:\n  checkpoint: %s\n  this query: %s\n"
                        "A checkpoint continues the query that wrote it. Run that query, or start this one with "
                        "a new checkpointLocation (it then starts where its startingVersion says; the old query's "
                        "hidden objects %s* stay until dropped)"
                        % (location, what, json.dumps(old.get(key)), json.dumps(definition.get(key)),
                           PREFIX + data.get("id", "?") + "_"))
            return cls(location, data)
        query_id = uuid.uuid4().hex[:12]
        data = {"format": 1, "id": query_id, "database": os.path.abspath(database), "definition": definition,
                "objects": object_names(query_id), "objects_created": False, "kafka_options": {},
                "last_batch_id": -1, "foreach_completed": -1}
        return cls(location, data)

    @property
    def id(self):
        return self.data["id"]

    @property
    def objects(self):
        return self.data["objects"]

    def save(self):
        os.makedirs(self.location, exist_ok=True)
        tmp = self.path + ".tmp"
        with open(tmp, "w") as f:
            json.dump(self.data, f, indent=1, sort_keys=True)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)
        fd = os.open(self.location, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
