#include "quarry/dive/dive_model.h"

#include <algorithm>
#include <cctype>
#include <exception>

#include "quarry/cli/text_table.h"
#include "quarry/dive/dive_screens.h"
#include "quarry/formats/orc/orc_file_reader.h"

namespace quarry::cli {

namespace {

constexpr const char* kFooterKeys =
    "Enter open  Esc back  /search n next  p pages i col-index o off-index d dict  ? help  q quit";

std::string lowercase(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

bool isChunkView(DiveView view) {
  return view == DiveView::kChunkDetail || view == DiveView::kPages ||
         view == DiveView::kPageHeader || view == DiveView::kColumnIndex ||
         view == DiveView::kOffsetIndex || view == DiveView::kDictionary;
}

}  // namespace

DiveModel::DiveModel(InspectedFile file, int rows, int columns)
    : file_(std::move(file)), rows_(rows), columns_(columns) {
  open(std::make_unique<DiveScreen>());
}

DiveModel::DiveModel(std::unique_ptr<orc::OrcFileReader> orc, int rows, int columns)
    : orc_(std::move(orc)), rows_(rows), columns_(columns) {
  open(std::make_unique<DiveScreen>());
}

DiveModel::~DiveModel() = default;

DiveView DiveModel::view() const {
  return top().where.view;
}
size_t DiveModel::cursor() const {
  return top().cursor;
}
const std::vector<std::string>& DiveModel::bodyLines() const {
  return top().lines;
}

void DiveModel::build(DiveScreen& screen) {
  try {
    if (screen.where.view == DiveView::kHelp) {
      screen.lines.clear();
      screen.targets.clear();
      buildDiveHelp(screen);
    } else if (orc_ != nullptr) {
      buildOrcDiveScreen(*orc_, screen);
    } else {
      buildDiveScreen(*file_, physical_, screen);
    }
  } catch (const std::exception& e) {
    // A defect in the file is something to look at, not the end of the session.
    screen.lines.clear();
    screen.targets.clear();
    screen.add("cannot show this screen:");
    screen.addText(e.what());
  }
  if (screen.lines.empty()) screen.add("(empty)");
  // Start on the first line that opens something, where there is one.
  const auto first = std::find_if(screen.targets.begin(), screen.targets.end(),
                                  [](const auto& target) { return target.has_value(); });
  screen.cursor =
      first == screen.targets.end() ? 0 : static_cast<size_t>(first - screen.targets.begin());
  screen.top = 0;
  keepCursorVisible(screen);
}

void DiveModel::open(std::unique_ptr<DiveScreen> screen) {
  build(*screen);
  stack_.push_back(std::move(screen));
}

void DiveModel::openSelection() {
  const DiveScreen& screen = top();
  if (screen.cursor >= screen.targets.size() || !screen.targets[screen.cursor].has_value()) {
    message_ = "nothing to open on this line";
    return;
  }
  auto next = std::make_unique<DiveScreen>();
  next->where = *screen.targets[screen.cursor];
  open(std::move(next));
}

void DiveModel::openChunkView(DiveView view) {
  if (orc_ != nullptr) {
    message_ = "ORC: stripes > a stripe's streams > Enter on a ROW_INDEX stream";
    return;
  }
  if (!isChunkView(top().where.view)) {
    message_ = "open a column chunk first (row groups > a column chunk)";
    return;
  }
  auto next = std::make_unique<DiveScreen>();
  next->where = top().where;
  next->where.view = view;
  open(std::move(next));
}

size_t DiveModel::bodyHeight() const {
  return rows_ > 2 ? static_cast<size_t>(rows_ - 2) : 1;  // title and footer
}

void DiveModel::keepCursorVisible(DiveScreen& screen) const {
  const size_t height = bodyHeight();
  if (screen.cursor < screen.top) screen.top = screen.cursor;
  if (screen.cursor >= screen.top + height) screen.top = screen.cursor - height + 1;
}

void DiveModel::moveCursor(int64_t delta) {
  DiveScreen& screen = top();
  const auto last = static_cast<int64_t>(screen.lines.size()) - 1;
  const int64_t target = std::clamp(static_cast<int64_t>(screen.cursor) + delta, int64_t{0},
                                    std::max<int64_t>(last, 0));
  screen.cursor = static_cast<size_t>(target);
  keepCursorVisible(screen);
}

void DiveModel::search(bool fromNext) {
  if (lastSearch_.empty()) {
    message_ = "no search yet: / then the text";
    return;
  }
  DiveScreen& screen = top();
  const std::string needle = lowercase(lastSearch_);
  const size_t count = screen.lines.size();
  for (size_t step = fromNext ? 1 : 0; step <= count; ++step) {
    const size_t i = (screen.cursor + step) % count;
    if (lowercase(screen.lines[i]).find(needle) != std::string::npos) {
      screen.cursor = i;
      keepCursorVisible(screen);
      message_.clear();
      return;
    }
  }
  message_ = "not found: " + lastSearch_;
}

bool DiveModel::handleKey(int key) {
  if (searchInput_.has_value()) {
    if (key == kKeyEnter) {
      lastSearch_ = *searchInput_;
      searchInput_.reset();
      search(false);
    } else if (key == kKeyEscape) {
      searchInput_.reset();
    } else if (key == kKeyBackspace) {
      if (!searchInput_->empty()) searchInput_->pop_back();
    } else if (key >= 0x20 && key < 0x7f) {
      *searchInput_ += static_cast<char>(key);
    }
    return true;
  }
  message_.clear();
  const int64_t page = static_cast<int64_t>(bodyHeight());
  switch (key) {
    case 'q':
      return false;
    case kKeyUp:
    case 'k':
      moveCursor(-1);
      break;
    case kKeyDown:
    case 'j':
      moveCursor(1);
      break;
    case kKeyPageUp:
      moveCursor(-page);
      break;
    case kKeyPageDown:
    case ' ':
      moveCursor(page);
      break;
    case kKeyHome:
    case 'g':
      moveCursor(-static_cast<int64_t>(top().lines.size()));
      break;
    case kKeyEnd:
    case 'G':
      moveCursor(static_cast<int64_t>(top().lines.size()));
      break;
    case kKeyEnter:
    case kKeyRight:
    case 'l':
      openSelection();
      break;
    case kKeyLeft:
    case kKeyBackspace:
    case kKeyEscape:
    case 'h':
      if (stack_.size() > 1) stack_.pop_back();
      break;
    case '?':
      if (top().where.view != DiveView::kHelp) {
        auto help = std::make_unique<DiveScreen>();
        help->where.view = DiveView::kHelp;
        open(std::move(help));
      }
      break;
    case '/':
      searchInput_ = std::string();
      break;
    case 'n':
      search(true);
      break;
    case 'p':
      openChunkView(DiveView::kPages);
      break;
    case 'i':
      openChunkView(DiveView::kColumnIndex);
      break;
    case 'o':
      openChunkView(DiveView::kOffsetIndex);
      break;
    case 'd':
      openChunkView(DiveView::kDictionary);
      break;
    case 't':
      if (top().where.view == DiveView::kDataPreview) {
        physical_ = !physical_;
        const size_t cursor = top().cursor;
        build(top());
        top().cursor = std::min(cursor, top().lines.size() - 1);
        keepCursorVisible(top());
      } else {
        message_ = "t toggles logical / physical values in the data preview";
      }
      break;
    default:
      break;
  }
  return true;
}

void DiveModel::resize(int rows, int columns) {
  rows_ = std::max(rows, 1);
  columns_ = std::max(columns, 1);
  for (auto& screen : stack_) keepCursorVisible(*screen);
}

DiveFrame DiveModel::frame() const {
  const auto width = static_cast<size_t>(std::max(columns_, 1));
  const auto fit = [width](std::string_view text) { return printableText(text, width); };
  const DiveScreen& screen = top();
  DiveFrame frame;
  std::string title = "quarry dive  " + screen.title;
  const std::string position =
      "  " + std::to_string(screen.cursor + 1) + "/" + std::to_string(screen.lines.size());
  frame.lines.push_back(fit(title + position));
  const size_t height = bodyHeight();
  for (size_t i = 0; i < height; ++i) {
    const size_t line = screen.top + i;
    if (line >= screen.lines.size()) {
      frame.lines.emplace_back();
      continue;
    }
    if (line == screen.cursor) frame.highlight = static_cast<int>(frame.lines.size());
    frame.lines.push_back(fit(screen.lines[line]));
  }
  if (searchInput_.has_value()) {
    frame.lines.push_back(fit("/" + *searchInput_));
  } else if (!message_.empty()) {
    frame.lines.push_back(fit(message_));
  } else {
    frame.lines.push_back(fit(kFooterKeys));
  }
  return frame;
}

}  // namespace quarry::cli
