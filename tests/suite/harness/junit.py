"""tests/suite/harness/junit.py - the results as a JUnit XML file, for CI (--junit).

One <testsuite> of <testcase>s, in table order, each with its time in
seconds; a failed test holds a <failure> (an <error> where the suite's
own code failed) whose message is the reason and whose text is the
detail lines and the test's log.  A test's classname is the first word
of its name (ktest, loader, rom ...), which CI viewers group by.
"""

import re
import xml.etree.ElementTree as ET

# What XML 1.0 cannot hold: a serial log may have any byte in it.
NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_text(text):
    return NOT_XML.sub("?", text)


def write(path, suite_name, results):
    suite = ET.Element("testsuite", name=suite_name, tests=str(len(results)),
                       failures=str(sum(not r.passed and not r.crashed for r in results)),
                       errors=str(sum(r.crashed for r in results)), skipped="0",
                       time=f"{sum(r.seconds for r in results):.3f}")
    for result in results:
        case = ET.SubElement(suite, "testcase", classname=result.test.name.split("-")[0],
                             name=result.test.name, time=f"{result.seconds:.3f}")
        if not result.passed:
            failure = ET.SubElement(case, "error" if result.crashed else "failure",
                                    message=xml_text(result.reason))
            failure.text = xml_text("\n".join(result.details + [f"log: {result.test.log}"]))
    root = ET.Element("testsuites")
    root.append(suite)
    ET.indent(root)
    ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)
