"""PEP 249 constructors. lakestream has no TIME type: Time() and
TimeFromTicks() exist because PEP 249 names them, and a time value as a
parameter is rejected with a message saying so."""

import datetime
import time

Date = datetime.date
Timestamp = datetime.datetime
Time = datetime.time


def DateFromTicks(ticks):
    return Date(*time.localtime(ticks)[:3])


def TimeFromTicks(ticks):
    return Time(*time.localtime(ticks)[3:6])


def TimestampFromTicks(ticks):
    return Timestamp(*time.localtime(ticks)[:6])


def Binary(data):
    """Binary data: lakestream stores it in VARCHAR columns (there is no BLOB)."""
    return bytes(data)
