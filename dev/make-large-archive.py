#!/usr/bin/env python3
"""Writes a large NSKeyedArchiver-shaped binary archive for measuring karchive.

usage: dev/make-large-archive.py RECORDS OUTPUT   (200000 records make about 100 MB)

The root is an NSArray of MyApp.Record objects, each with a string, an integer, a real, a Boolean,
an NSDate, an NSArray of shared tag strings, a 200-299-byte data blob, and one of 100 shared
MyApp.Group objects. Written with Python's plistlib, independently of this package.
"""
import plistlib
import random
import sys
from plistlib import UID

random.seed(1)
count = int(sys.argv[1])
objects = ["$null"]


def add(value):
    objects.append(value)
    return UID(len(objects) - 1)


def cls(name):
    return add({"$classname": name, "$classes": [name, "NSObject"]})


record_class, array_class, date_class, group_class = (
    cls("MyApp.Record"), cls("NSArray"), cls("NSDate"), cls("MyApp.Group"))
tags = [add(tag) for tag in ["red", "green", "blue", "large", "small"]]
groups = [add({"$class": group_class, "title": add("group %d" % g), "rank": g}) for g in range(100)]
root = len(objects)
objects.append(None)
records = []
for i in range(count):
    name = add("record-%08d-%s" % (i, "x" * (i % 17)))
    blob = add(random.randbytes(200 + i % 100))
    date = add({"$class": date_class, "NS.time": 600000000.0 + i * 1.5})
    tag_list = add({"$class": array_class, "NS.objects": [tags[i % 5], tags[(i * 7) % 5]]})
    records.append(add({
        "$class": record_class, "name": name, "id": i, "score": i / 7.0, "active": i % 2 == 0,
        "created": date, "tags": tag_list, "blob": blob, "group": groups[i % 100],
    }))
objects[root] = {"$class": array_class, "NS.objects": records}
archive = {"$version": 100000, "$archiver": "NSKeyedArchiver", "$top": {"root": UID(root)}, "$objects": objects}
with open(sys.argv[2], "wb") as output:
    plistlib.dump(archive, output, fmt=plistlib.FMT_BINARY, sort_keys=False)
