#!/usr/bin/env python3
"""Reads a sticker pack app project with parsers that share no code with StickerKit, and
prints what they find as JSON, for the tests to compare with what was asked for.

    xcode_project.py PROJECT_FOLDER NAME.xcodeproj

- openstep-parser (PyPI) reads project.pbxproj: every identifier any value names exists, every
  object is reachable from the root, the targets and their product types, the phases, the
  app's embed phase, where each file reference points and whether the file is there, each
  target's Release build settings over the project's.
- pbxproj (PyPI, mod-pbxproj) loads the project and writes it back; openstep-parser reads both,
  and "round_trip_equal" says whether the objects are the same.
- plistlib (Python's own) reads both Info.plists; ElementTree reads the shared scheme.
"""
import json
import os
import plistlib
import re
import sys
import tempfile
import xml.etree.ElementTree as ElementTree

from openstep_parser import OpenStepDecoder
from pbxproj import XcodeProject

IDENTIFIER = re.compile(r"^[0-9A-F]{24}$")


def named_identifiers(value):
    """Every string in value that has the shape of an object identifier."""
    if isinstance(value, str):
        return [value] if IDENTIFIER.match(value) else []
    if isinstance(value, list):
        return [i for item in value for i in named_identifiers(item)]
    if isinstance(value, dict):
        return [i for key, item in value.items() for i in named_identifiers(key) + named_identifiers(item)]
    return []


def main():
    folder, bundle = sys.argv[1], sys.argv[2]
    path = os.path.join(folder, bundle, "project.pbxproj")
    with open(path, encoding="utf-8") as f:
        tree = OpenStepDecoder.ParseFromString(f.read())
    objects = tree["objects"]
    root = tree["rootObject"]

    dangling = sorted({i for obj in objects.values() for i in named_identifiers(obj) if i not in objects})
    reachable, stack = set(), [root]
    while stack:
        current = stack.pop()
        if current in reachable or current not in objects:
            continue
        reachable.add(current)
        stack.extend(named_identifiers(objects[current]))
    orphans = sorted(set(objects) - reachable)

    parents = {}
    for oid, obj in objects.items():
        if obj.get("isa") in ("PBXGroup", "PBXVariantGroup"):
            for child in obj.get("children", []):
                parents[child] = oid

    def location(oid):
        parts = []
        node = oid
        while node is not None:
            obj = objects[node]
            tree_kind = obj.get("sourceTree", "<group>")
            if tree_kind == "<group>":
                if "path" in obj:
                    parts.insert(0, obj["path"])
                node = parents.get(node)
            elif tree_kind == "SOURCE_ROOT":
                parts.insert(0, obj.get("path", ""))
                break
            else:
                return None
        return os.path.join(folder, *parts)

    files = {}
    for oid, obj in objects.items():
        if obj.get("isa") == "PBXFileReference":
            where = location(oid)
            files[oid] = {"path": obj.get("path"), "location": where,
                          "exists": where is not None and os.path.exists(where)}

    def release_settings(oid):
        lst = objects[objects[oid]["buildConfigurationList"]]
        configs = [objects[c] for c in lst["buildConfigurations"]]
        chosen = next(c for c in configs if c["name"] == "Release")
        return chosen["buildSettings"]

    project_settings = release_settings(root)
    targets = []
    for tid in objects[root]["targets"]:
        target = objects[tid]
        settings = dict(project_settings)
        settings.update(release_settings(tid))
        phases = []
        for pid in target["buildPhases"]:
            phase = objects[pid]
            phases.append({
                "isa": phase["isa"],
                "dstSubfolderSpec": phase.get("dstSubfolderSpec"),
                "files": [objects[b]["fileRef"] for b in phase.get("files", [])],
                "file_paths": [objects[objects[b]["fileRef"]].get("path") for b in phase.get("files", [])],
            })
        targets.append({
            "id": tid, "name": target["name"], "productType": target["productType"],
            "productReference": target["productReference"],
            "product_path": objects[target["productReference"]]["path"],
            "dependencies": [objects[d]["target"] for d in target.get("dependencies", [])],
            "phases": phases, "settings": settings,
        })

    project = XcodeProject.load(path)
    with tempfile.TemporaryDirectory() as scratch:
        copy = os.path.join(scratch, "project.pbxproj")
        project.save(copy)
        with open(copy, encoding="utf-8") as f:
            rewritten = OpenStepDecoder.ParseFromString(f.read())
    round_trip_equal = rewritten["objects"] == objects and rewritten["rootObject"] == root
    pbxproj_targets = sorted(t.name for t in project.objects.get_targets())

    plists = {}
    for target in targets:
        info_file = target["settings"].get("INFOPLIST_FILE")
        with open(os.path.join(folder, info_file), "rb") as f:
            plists[target["name"]] = plistlib.load(f)

    schemes = sorted(os.listdir(os.path.join(folder, bundle, "xcshareddata", "xcschemes")))
    scheme_file = os.path.join(bundle, "xcshareddata", "xcschemes", schemes[0])
    scheme_root = ElementTree.parse(os.path.join(folder, scheme_file)).getroot()
    scheme = {
        "file": scheme_file,
        "build_blueprints": [r.get("BlueprintIdentifier")
                             for r in scheme_root.findall("./BuildAction/BuildActionEntries/BuildActionEntry/BuildableReference")],
        "containers": sorted({r.get("ReferencedContainer") for r in scheme_root.iter("BuildableReference")}),
        "remote_bundle": scheme_root.find("./LaunchAction/RemoteRunnable").get("BundleIdentifier"),
    }

    print(json.dumps({
        "scheme": scheme,
        "object_count": len(objects), "dangling": dangling, "orphans": orphans, "files": list(files.values()),
        "targets": targets, "round_trip_equal": round_trip_equal, "pbxproj_targets": pbxproj_targets,
        "plists": plists, "object_version": tree["objectVersion"],
    }, default=str, sort_keys=True))


if __name__ == "__main__":
    main()
