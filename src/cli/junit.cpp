#include "junit.h"

#include <cmath>
#include <cstdio>
#include <sstream>

#include "report_view.h"
#include "xml_escape.h"

namespace footfix::cli {

namespace {

std::string number(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3f", v);
  return buffer;
}

}  // namespace

std::string junit_xml(const ReportDocument& report, double max_slide_cm_s) {
  std::ostringstream cases;
  int failures = 0, errors = 0, skipped = 0, tests = 0;
  double total_time = 0;
  const std::vector<ClipReport>& clips = report.clips;
  for (const auto& clip : clips) {
    ++tests;
    double time = clip.time_s.value_or(0.0);
    total_time += time;
    cases << "    <testcase classname=\"footfix.clean\" name=\"" << xml_escape(clip.input) << "\" time=\""
          << number(time) << "\">\n";
    const double p95 = residual_slide(clip, NAN);
    if (clip.status == ClipStatus::failed) {
      ++errors;
      const std::string& message = clip.error;
      cases << "      <error message=\"" << xml_escape(message.empty() ? "not cleaned" : message) << "\"/>\n";
    } else if (p95 > max_slide_cm_s) {
      ++failures;
      cases << "      <failure message=\"residual contact slide p95 " << number(p95) << " cm/s &gt; "
            << number(max_slide_cm_s) << " cm/s\"/>\n";
    } else if (clip.status == ClipStatus::skipped) {
      ++skipped;
      cases << "      <skipped message=\"unchanged since the last run (--incremental)\"/>\n";
    }
    if (!clip.warnings.empty()) {
      cases << "      <system-out>";
      for (const auto& warning : clip.warnings) cases << "warning: " << xml_escape(warning) << "\n";
      cases << "</system-out>\n";
    }
    cases << "    </testcase>\n";
  }
  // A run that did not finish fails as a whole: the clips it never reached are not listed.
  if (const std::string note = incomplete_note(report_view(report), clips.size()); !note.empty()) {
    ++tests;
    ++errors;
    cases << "    <testcase classname=\"footfix.run\" name=\"batch complete\" time=\"0.000\">\n      <error message=\""
          << xml_escape(note) << "\"/>\n    </testcase>\n";
  }
  std::ostringstream out;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<testsuites name=\"footfix\" tests=\"" << tests << "\" failures=\"" << failures << "\" errors=\"" << errors
      << "\" skipped=\"" << skipped << "\" time=\"" << number(total_time) << "\">\n"
      << "  <testsuite name=\"footfix clean\" tests=\"" << tests << "\" failures=\"" << failures << "\" errors=\""
      << errors << "\" skipped=\"" << skipped << "\" time=\"" << number(total_time) << "\">\n"
      << cases.str() << "  </testsuite>\n</testsuites>\n";
  return out.str();
}

}  // namespace footfix::cli
