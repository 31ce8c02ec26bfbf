// libFuzzer target for the contacts file reader (parse_contacts_json). footfix::Error is the
// expected outcome for bad input; anything else escaping (nlohmann exceptions included) is a
// finding. An accepted document must be self-consistent: every foot's per-frame arrays and
// intervals (sorted, disjoint) fit the frame count it declares.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "footfix/core/error.h"
#include "contacts/contacts_json.h"

namespace {

void check_consistent(const footfix::ContactsDocument& doc) {
  for (const auto& foot : doc.result.feet) {
    bool ok = foot.contact.size() == static_cast<size_t>(doc.frame_count) &&
              foot.smoothed.size() == static_cast<size_t>(doc.frame_count);
    int previous_last = -1;
    for (const auto& interval : foot.intervals) {
      ok = ok && interval.first_frame > previous_last && interval.first_frame <= interval.last_frame &&
           interval.last_frame < doc.frame_count;
      previous_last = interval.last_frame;
    }
    if (!ok) {
      std::fprintf(stderr, "accepted an inconsistent contacts document (%d frames)\n", doc.frame_count);
      std::abort();
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    check_consistent(footfix::parse_contacts_json(text, "fuzz.contacts.json"));
  } catch (const footfix::Error&) {
  }
  return 0;
}
