#!/usr/bin/env python3
# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
"""sync-vcxproj.py - rewrites the source lists of the Visual Studio projects from
cmake/sources.cmake (the Windows halves), so both builds compile the same files. A source whose
file name another source of its project shares (engine/freeze.c, report/freeze.c) gets an object
file of its own, named after its path, since MSBuild would otherwise compile both to
$(IntDir)freeze.obj and link one of them twice. The test vcxproj_lists_every_source checks the
result; run this after adding or removing a source file."""
import os
import re
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Which CMake source list each project compiles.
PROJECTS = {
    "shared/threadsoup-shared.vcxproj": ["TS_SHARED_SOURCES"],
    "service/threadsoup-core.vcxproj": ["TS_CORE_SOURCES"],
    "service/threadsoup.vcxproj": ["TS_CLI_SOURCES"],
    "service/idle/threadsoup-idle.vcxproj": ["TS_IDLE_SOURCES"],
    "tray/threadsoup-tray.vcxproj": ["TS_TRAY_SOURCES"],
}


def cmake_lists():
    text = open(os.path.join(TOP, "cmake/sources.cmake")).read()
    lists = {}
    for name, body in re.findall(r"set\((\w+)\s+(.*?)\)", text, re.S):
        lists.setdefault(name, []).extend(body.split())
    for name, body in re.findall(r"list\(APPEND (\w+)\s+(.*?)\)", text, re.S):
        lists.setdefault(name, []).extend(body.split())
    return {k: [f.replace("${TS_PLATFORM}", "win32") for f in v] for k, v in lists.items()}


def compile_item(source, folder, sources):
    """The project's line for one source; with an <ObjectFileName> of its own when another source
    of the project has its file name (Windows compares names without case)."""
    include = os.path.relpath(os.path.join(TOP, source), folder).replace("/", "\\")
    name = os.path.basename(source).lower()
    if sum(os.path.basename(s).lower() == name for s in sources) == 1:
        return '    <ClCompile Include="%s" />\r\n' % include
    # Under $(IntDir), as the source is under the project's folder ("..\" parts dropped).
    obj = "\\".join(p for p in include.split("\\") if p != "..")[:-len(".c")] + ".obj"
    return ('    <ClCompile Include="%s">\r\n'
            '      <ObjectFileName>$(IntDir)%s</ObjectFileName>\r\n'
            '    </ClCompile>\r\n' % (include, obj))


def main():
    lists = cmake_lists()
    for project, names in PROJECTS.items():
        path = os.path.join(TOP, project)
        folder = os.path.dirname(path)
        files = [f for n in names for f in lists[n] if f.endswith(".c")]
        compile_items = "".join(compile_item(f, folder, files) for f in files)
        xml = open(path, newline="").read()
        new = re.sub(r"  <ItemGroup>\r\n    <ClCompile (?:(?!</ItemGroup>).)*  </ItemGroup>",
                     lambda m: "  <ItemGroup>\r\n" + compile_items + "  </ItemGroup>", xml,
                     flags=re.S)
        if new != xml:
            open(path, "w", newline="").write(new)
            print("updated", project)
    return 0


if __name__ == "__main__":
    sys.exit(main())
