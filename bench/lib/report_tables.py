"""Accuracy tables (Markdown) from `langid evaluate` reports, for the bench scripts.

    import report_tables as rt
    rt.table("UDHR", "windows", languages, [("model", detectors, "langid"), ...])

A column is (header, the report's detectors by name, a detector's name); a detector the report
lacks is shown as "–". Each language's cell is its recall, the last row the overall accuracy;
under the table, the model's lead over each peer column with its 95% interval (`model_lead`).
"""
import json


def load(path):
    return json.load(open(path))


def by_name(report):
    """The report's detectors by name."""
    return {d["name"]: d for d in report["detectors"]}


def accuracy(path, level, detector="langid"):
    """A detector's overall accuracy, in percent, at a level ("windows" or "sentences") of the report at path."""
    return 100 * by_name(load(path))[detector][level]["accuracy"]


def table(title, level, languages, columns):
    """Prints one table and returns {(header, language or "all"): accuracy} for its cells."""
    counts = [c[1][c[2]][level]["count"] for c in columns if c[2] in c[1] and level in c[1][c[2]]]
    print(f"\n{title}, {level} ({counts[0]:,}):\n" if counts else f"\n{title}, {level}:\n")
    print("| language | " + " | ".join(c[0] for c in columns) + " |")
    print("| --- |" + " --- |" * len(columns))
    values = {}
    for i, language in enumerate(languages + ["all"]):
        cells = []
        for header, detectors, name in columns:
            scores = detectors.get(name, {}).get(level)
            if scores is None:
                cells.append("–")
                continue
            value = scores["accuracy"] if language == "all" else scores["per_language"][i]["recall"]
            values[(header, language)] = value
            cells.append(f"{100 * value:.1f}%" if language != "all" else f"**{100 * value:.2f}%**")
        print(f"| {'**all**' if language == 'all' else language} | " + " | ".join(cells) + " |")
    for header, detectors, name in columns:
        lead = detectors.get(name, {}).get(level, {}).get("model_lead")
        if lead:
            low, high = lead["interval_95"]
            print(f"\n{lead['model']} − {header}: {100 * lead['accuracy_difference']:+.2f} points"
                  f" (95% interval {100 * low:+.2f} to {100 * high:+.2f} over {lead['clusters']:,} sentences)")
    return values


def fasttext_line(detector):
    """One line on how a fastText peer was trained."""
    t = detector["trained"]
    return (f"`{t['arguments']}`, text {t.get('text', 'words')}, {t['count']:,} training windows, trained in {t['seconds']:.0f} s"
            f" ({t['threads']} threads{', cached' if t['cached'] else ''})")
