// `permanode export`: see export.hpp.
#include "export.hpp"

#include <ostream>
#include <stdexcept>

#include "codec/bech32.hpp"
#include "permanode/client.hpp"
#include "permanode/queries.hpp"

namespace permanode::cli
{

long ExportHistory(const std::string &dsn, const ExportOptions &options, std::ostream &out)
{
    std::string address;
    try
    {
        address = codec::AddressHexOfAnyEra(options.address);
    }
    catch (const std::exception &e)
    {
        throw std::invalid_argument("--address: not an address of either era (" +
                                    std::string(e.what()) + ")");
    }
    const bool csv = options.format == "csv";
    if (csv)
        out << client::queries::HistoryCsvHeader() << '\n';
    client::Client client(dsn);
    long written = 0;
    std::optional<client::Cursor> after;
    do
    {
        auto page = client.Run(
            client::queries::AddressHistory(address, options.page_size, after, options.span));
        for (const auto &entry : page.items)
            out << (csv ? client::queries::HistoryCsvLine(entry)
                        : client::queries::HistoryJsonLine(entry))
                << '\n';
        written += static_cast<long>(page.items.size());
        after = page.next;
    } while (after);
    out.flush();
    return written;
}

} // namespace permanode::cli
