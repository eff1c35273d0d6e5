"""format()/option()/options(): the part Spark's readers and writers share."""


class OptionsBuilder:
    """Keeps the format (lower-cased) and the options of a reader or writer.

    Subclasses set ``self._format`` and ``self._options`` in ``__init__``.
    Reader option names compare case-insensitively, as in Spark, so they are
    kept lower-cased; a writer passes some options on (``kafka.*`` properties
    of librdkafka, where case matters) and sets ``_fold_keys = False``."""

    _fold_keys = True

    def format(self, source):
        self._format = str(source).lower()
        return self

    def option(self, key, value):
        key = str(key)
        self._options[key.lower() if self._fold_keys else key] = value
        return self

    def options(self, **options):
        for k, v in options.items():
            self.option(k, v)
        return self
