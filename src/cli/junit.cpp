#include "junit.h"

#include <cmath>
#include <cstdio>
#include <sstream>

#include "report_fields.h"
#include "report_view.h"
#include "xml_escape.h"

namespace footfix::cli {
using nlohmann::json;

namespace {

std::string number(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3f", v);
  return buffer;
}

}  // namespace

std::string junit_xml(const json& report, double max_slide_cm_s) {
  std::ostringstream cases;
  int failures = 0, errors = 0, skipped = 0, tests = 0;
  double total_time = 0;
  const json& clips = clips_of(report);
  for (const auto& clip : clips) {
    ++tests;
    std::string status = text_at(clip, {"status"});
    double time = number_at(clip, {"time_s"}, 0.0);
    total_time += time;
    cases << "    <testcase classname=\"footfix.clean\" name=\"" << xml_escape(text_at(clip, {"input"})) << "\" time=\""
          << number(time) << "\">\n";
    const double p95 = residual_slide(clip, NAN);
    if (status != "ok" && status != "skipped") {
      ++errors;
      std::string message = text_at(clip, {"error"});
      cases << "      <error message=\"" << xml_escape(message.empty() ? "not cleaned" : message) << "\"/>\n";
    } else if (p95 > max_slide_cm_s) {
      ++failures;
      cases << "      <failure message=\"residual contact slide p95 " << number(p95) << " cm/s &gt; "
            << number(max_slide_cm_s) << " cm/s\"/>\n";
    } else if (status == "skipped") {
      ++skipped;
      cases << "      <skipped message=\"unchanged since the last run (--incremental)\"/>\n";
    }
    if (auto w = clip.find("warnings"); w != clip.end() && w->is_array() && !w->empty()) {
      cases << "      <system-out>";
      for (const auto& warning : *w)
        if (warning.is_string()) cases << "warning: " << xml_escape(warning.get<std::string>()) << "\n";
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
