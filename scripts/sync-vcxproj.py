#!/usr/bin/env python3
# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
"""sync-vcxproj.py - rewrites the source lists of the Visual Studio projects from
cmake/sources.cmake (the Windows halves), so both builds compile the same files. The test
vcxproj_lists_every_source checks the result; run this after adding or removing a source file."""
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


def main():
    lists = cmake_lists()
    for project, names in PROJECTS.items():
        path = os.path.join(TOP, project)
        folder = os.path.dirname(path)
        files = [f for n in names for f in lists[n]]
        compile_items = "".join(
            '    <ClCompile Include="%s" />\r\n'
            % os.path.relpath(os.path.join(TOP, f), folder).replace("/", "\\")
            for f in files if f.endswith(".c"))
        xml = open(path, newline="").read()
        new = re.sub(r"  <ItemGroup>\r\n(    <ClCompile [^\r\n]*\r\n)+  </ItemGroup>",
                     lambda m: "  <ItemGroup>\r\n" + compile_items + "  </ItemGroup>", xml)
        if new != xml:
            open(path, "w", newline="").write(new)
            print("updated", project)
    return 0


if __name__ == "__main__":
    sys.exit(main())
