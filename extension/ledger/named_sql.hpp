// SQL with named placeholders (:block_id) for ingest's statements: each statement's text and
// parameter list are written together, and numbering the placeholders from that list checks
// that they agree. Free of PostgreSQL.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace permanode::ledger
{

// Replaces each :name placeholder of sql by $n, n the position of name in `names` (from 1).
// Throws std::invalid_argument naming a placeholder that is not in `names`, a name that sql does
// not use, or a name listed twice. A cast (::type) and text in single or double quotes are left
// alone.
std::string NumberPlaceholders(std::string_view sql, const std::vector<std::string_view> &names);

} // namespace permanode::ledger
