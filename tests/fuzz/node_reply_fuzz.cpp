// libFuzzer target for what `permanode sync` reads from a node: the replies of its REST API
// (client/sync/rest_apis.hpp) and the messages of INX (client/sync/inx_convert.hpp). The input is
// a script of the node's answers:
//   "ENTRY INDEX\n" then replies, each "--- STATUS\n" and its body up to the next "\n--- ".
// REST (served in turn to the requests the readers make, whatever they ask for):
//   s: the core API v2's status (/info), S: its milestone INDEX with its cone, outputs and UTXO
//   changes; c, C: the same of the API v1 (Chrysalis). A status other than 200 is the node's
//   error (ReplyError, as HttpGetter makes it); when the script runs out the node is gone.
// INX (each reply a serialized message; one that does not parse ends the call, as gRPC would):
//   n: NodeStatus; N: milestone INDEX: its Milestone, the cone's BlockWithMetadata messages up to
//   a reply whose status is not 200, then the LedgerUpdate stream.
// Requests go one at a time (parallel 1), so a script replays the same way every time. A
// milestone read is then checked as sync checks it (CheckCone, OutputsFromOutside). Everything a
// node may send must end in a NodeError or a ConeError, or in a milestone or status; nothing else
// may escape.
#include "fuzz_check.hpp"
#include "sync/cone_check.hpp"
#include "sync/http_getter.hpp"
#include "sync/inx_convert.hpp"
#include "sync/rest_apis.hpp"

#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace
{

using namespace permanode::sync;

constexpr std::string_view kSeparator = "\n--- ";

struct Reply
{
    int status = 200;
    std::string body;
};

// The node of a script: each request gets the next reply.
class ScriptedNode final : public RestGetter
{
  public:
    explicit ScriptedNode(std::vector<Reply> replies) : replies_(std::move(replies)) {}

    std::string Get(const std::string &path, const std::string &) override
    {
        if (next_ == replies_.size())
            throw NodeError(NodeError::Kind::kUnavailable, "GET " + Where(path) + ": no reply");
        const Reply &reply = replies_[next_++];
        if (reply.status != 200)
            throw ReplyError(reply.status, Where(path), reply.body);
        return reply.body;
    }
    std::string Where(const std::string &path) const override { return "http://fuzz" + path; }

  private:
    std::vector<Reply> replies_;
    std::size_t next_ = 0;
};

// "STATUS\nBODY" (a status that is no number: 200).
Reply ReplyOf(std::string_view piece)
{
    Reply reply;
    std::size_t newline = piece.find('\n');
    std::string_view status = piece.substr(0, newline);
    std::from_chars(status.data(), status.data() + status.size(), reply.status);
    if (newline != std::string_view::npos)
        reply.body = piece.substr(newline + 1);
    return reply;
}

std::vector<Reply> RepliesOf(std::string_view script)
{
    std::vector<Reply> replies;
    for (std::size_t at = script.find(kSeparator); at != std::string_view::npos;)
    {
        at += kSeparator.size();
        std::size_t end = script.find(kSeparator, at);
        replies.push_back(ReplyOf(script.substr(at, end - at)));
        at = end;
    }
    return replies;
}

// What sync does with a milestone before it archives it.
void CheckMilestone(const NodeMilestone &milestone, std::uint32_t index)
{
    FUZZ_CHECK(milestone.index == index);
    try
    {
        CheckCone(milestone);
        OutputsFromOutside(milestone);
    }
    catch (const ConeError &)
    {
    }
}

// A reply as an INX message, nullopt when it does not parse.
template <typename Message> std::optional<Message> Parsed(const Reply &reply)
{
    Message message;
    if (!message.ParseFromString(reply.body))
        return std::nullopt;
    return message;
}

void InxStatus(const std::vector<Reply> &replies)
{
    if (auto status = replies.empty() ? std::nullopt : Parsed<inx::NodeStatus>(replies[0]))
        StatusOf(*status);
}

// What InxNode::Milestone reads: the milestone, its cone stream, its ledger update stream.
void InxMilestone(const std::vector<Reply> &replies, std::uint32_t index)
{
    auto milestone = replies.empty() ? std::nullopt : Parsed<inx::Milestone>(replies[0]);
    if (!milestone)
        return;
    NodeMilestone out;
    ReadMilestone(*milestone, index, out);
    IndexedCone cone;
    std::size_t i = 1;
    for (; i < replies.size() && replies[i].status == 200; i++)
    {
        auto block = Parsed<inx::BlockWithMetadata>(replies[i]);
        if (!block)
            return;
        cone.push_back(ConeBlockOf(*block));
    }
    out.blocks = InWhiteFlagOrder(std::move(cone), index);
    LedgerUpdateReader updates(index, index);
    for (i++; i < replies.size() && !updates.Done(); i++)
    {
        auto update = Parsed<inx::LedgerUpdate>(replies[i]);
        if (!update)
            return;
        updates.Add(*update);
    }
    out.updates = updates.Take().front();
    CheckMilestone(out, index);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    std::string_view input(reinterpret_cast<const char *>(data), size);
    std::size_t newline = input.find('\n');
    std::string_view first = input.substr(0, newline);
    if (first.size() < 3 || first[1] != ' ')
        return 0;
    std::uint32_t index = 0;
    std::from_chars(first.data() + 2, first.data() + first.size(), index);
    // The replies from the first line's newline on, which starts the first separator.
    std::vector<Reply> replies =
        RepliesOf(newline == std::string_view::npos ? std::string_view() : input.substr(newline));
    ScriptedNode node(replies);
    try
    {
        switch (first[0])
        {
            case 's':
                rest::StardustStatus(node);
                break;
            case 'c':
                rest::ChrysalisStatus(node);
                break;
            case 'S':
                CheckMilestone(rest::StardustMilestone(node, index, 1), index);
                break;
            case 'C':
                CheckMilestone(rest::ChrysalisMilestone(node, index, 1), index);
                break;
            case 'n':
                InxStatus(replies);
                break;
            case 'N':
                InxMilestone(replies, index);
                break;
            default:
                break;
        }
    }
    catch (const NodeError &e)
    {
        FUZZ_CHECK(*e.what() != '\0');
    }
    return 0;
}
