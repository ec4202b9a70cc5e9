"""Adds `feedparser_links` to feed-cases.json: the entry links feedparser finds in each case.

Run with feedparser 6.0.10 (Debian's python3-feedparser): /usr/bin/python3 feedparser-links.py, then
`npx biome check --write feed-cases.json`.
The test (../feed-corpus.test.ts) reads the JSON only; this script records where the expectations came from.
"""
import json
import feedparser

cases = json.load(open("feed-cases.json"))
for case in cases:
    try:
        parsed = feedparser.parse(case["text"], response_headers={"content-location": case["url"]})
    except Exception as err:  # 6.0.10 crashes on some of its later regression cases
        case["feedparser_links"] = None
        case["feedparser_error"] = f"{type(err).__name__}: {err}"
        continue
    case["feedparser_links"] = [e.get("link") for e in parsed.entries if e.get("link")]
    case["feedparser_bozo"] = bool(parsed.bozo)
json.dump(cases, open("feed-cases.json", "w"), ensure_ascii=False, indent=1)
print(f"{len(cases)} cases")
