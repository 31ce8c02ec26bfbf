// CLI11's types for headers that only pass them by reference. The CLI11 headers themselves are
// included only by the files that declare options: they dominate those files' compile time.
#pragma once

namespace CLI {
class App;
class ParseError;
}  // namespace CLI
