// libFuzzer target for the archive reader's PostgreSQL-free path (fdw/engine): the manifest, the
// RocksDB files of a sealed archive, and the decoding of its keys, stored rows and dictionary.
// An input describes corruptions of the seed archive (tests/fuzz/archive_seed, made by
// make_archive_seed.sh): bytes flipped, files truncated or removed, the manifest edited (a value
// set, removed or copied over another) or replaced by the input's text. Or it is bytes the
// families hold, decoded directly with the seed's layout (as a stored row, as each family's keys
// and INCLUDE values, as dictionary values): RocksDB's block checksums keep corrupt bytes from
// ever reaching the decoders through the files, but their checks must hold anyway. The corrupted
// copy is
// read as a scan reads it: the manifest checked against the seed's foreign table, its columns
// bound to the seed's table, every family iterated and every key, row and dictionary value
// decoded. Each read must end in data or in one of the engine's errors (StatusError,
// KeyFormatError, ManifestError) or in the error binding gives; and what is read through a
// manifest that reads like the seed's must be what the seed holds.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>
#include <rocksdb/cache.h>
#include <rocksdb/table.h>

#include "engine/archive_store.hpp"
#include "engine/manifest.hpp"
#include "engine/prefetch.hpp"
#include "engine/row_layout.hpp"
#include "engine/split_keys.hpp"
#include "engine/value_dictionary.hpp"

namespace
{

using namespace permanode::fdw;
namespace fs = std::filesystem;
using nlohmann::json;

/* What binding the columns to the table refuses (the backend raises datatype_mismatch, or fails
 * to look the type up). */
class BindError : public std::runtime_error
{
  public:
    using std::runtime_error::runtime_error;
};

[[noreturn]] void Fail(const std::string &what)
{
    fprintf(stderr, "archive_fuzz: %s\n", what.c_str());
    abort();
}

/* FNV-1a over everything decoded, lengths included. */
class Digest
{
  public:
    void Add(std::string_view bytes)
    {
        AddInt(static_cast<int64_t>(bytes.size()));
        for (char c : bytes)
            Mix(static_cast<uint8_t>(c));
    }
    void AddInt(int64_t v)
    {
        for (int i = 0; i < 8; i++)
            Mix(static_cast<uint8_t>(static_cast<uint64_t>(v) >> (8 * i)));
    }
    uint64_t value() const { return h_; }

  private:
    void Mix(uint8_t b) { h_ = (h_ ^ b) * 1099511628211ULL; }
    uint64_t h_ = 14695981039346656037ULL;
};

/* The stored layout of the built-in types the seed has, and of a few others a manifest may
 * name instead (PostgreSQL's typlen, typalign, typbyval). */
const std::map<uint32_t, StoredColumn> &BuiltinTypes()
{
    static const std::map<uint32_t, StoredColumn> types = {
        {16, {1, 'c', true}},     /* bool */
        {17, {-1, 'i', false}},   /* bytea */
        {18, {1, 'c', true}},     /* "char" */
        {19, {64, 'c', false}},   /* name */
        {20, {8, 'd', true}},     /* int8 */
        {21, {2, 's', true}},     /* int2 */
        {23, {4, 'i', true}},     /* int4 */
        {25, {-1, 'i', false}},   /* text */
        {700, {4, 'i', true}},    /* float4 */
        {1009, {-1, 'i', false}}, /* text[] */
        {1016, {-1, 'd', false}}, /* int8[] */
        {1082, {4, 'i', true}},   /* date */
        {1184, {8, 'd', true}},   /* timestamptz */
        {1700, {-1, 'i', false}}, /* numeric */
        {2275, {-2, 'c', false}}, /* cstring */
        {2950, {16, 'c', false}}, /* uuid */
        {3802, {-1, 'i', false}}, /* jsonb */
    };
    return types;
}

/* The seed archive: its files, its manifest, and what reading it gives. */
struct Seed
{
    std::map<std::string, std::string> files; /* relative path -> bytes */
    std::string manifest_text;
    Manifest manifest;
    std::string indexes; /* its foreign table's "indexes" option */
    uint64_t digest = 0;
};

Seed &TheSeed()
{
    static Seed seed;
    return seed;
}

/* Where each input's corrupted copy is written. */
std::string &WorkDir()
{
    static std::string dir;
    return dir;
}

/* How the reads ended, by outcome, printed at exit. */
std::map<std::string, uint64_t> &Outcomes()
{
    static auto &outcomes = *new std::map<std::string, uint64_t>();
    return outcomes;
}

/*
 * The columns' stored layout, bound as ArchiveCursor::Bind binds them: the table's columns in
 * their places; a column named as one of the table's must have its type (or a type of the same
 * name, which it adopts); any other must have a type the database knows.
 */
std::vector<StoredColumn> BindColumns(const Manifest &m)
{
    const std::vector<ManifestColumn> &table = TheSeed().manifest.columns;
    for (size_t j = 0; j < m.columns.size() && j < table.size(); j++)
        if (m.columns[j].name != table[j].name)
            throw ManifestError("the manifest names column " + std::to_string(j + 1) + " \"" +
                                m.columns[j].name + "\", the table \"" + table[j].name + "\"");
    std::vector<StoredColumn> columns;
    for (const ManifestColumn &c : m.columns)
    {
        uint32_t type = c.type_oid;
        for (const ManifestColumn &t : TheSeed().manifest.columns)
            if (t.name == c.name)
            {
                if (c.type_oid != t.type_oid && c.type_name != t.type_name)
                    throw BindError("column " + c.name + " has another type");
                type = t.type_oid;
            }
        auto found = BuiltinTypes().find(type);
        if (found == BuiltinTypes().end())
            throw BindError("no type " + std::to_string(type));
        columns.push_back(found->second);
    }
    return columns;
}

/* Decodes the key columns cols from pos on into d; returns the position after them. */
size_t DecodeKey(std::string_view key, size_t pos, const std::vector<KeyColumn> &cols, Digest &d)
{
    std::string bytes;
    for (const KeyColumn &kc : cols)
    {
        if (IsNullAt(key, pos))
            d.Add("NULL");
        else if (kc.kind == KeyKind::kFixed || kc.kind == KeyKind::kBytes)
        {
            DecodeBytes(key, pos, kc, bytes);
            d.Add(bytes);
        }
        else
            d.AddInt(DecodeInt(key, pos, kc));
        pos = SkipColumn(key, pos, kc);
    }
    return pos;
}

/* Reads an archive as a scan does. */
class Reader
{
  public:
    Reader(std::shared_ptr<ArchiveHandle> handle, const RowLayout &layout)
        : handle_(std::move(handle)), layout_(layout)
    {
        options_.verify_checksums = true;
    }

    /* Every family, every entry decoded into d. */
    void ReadAll(Digest &d)
    {
        ReadRows(d);
        for (size_t i = 0; i < handle_->indexes.size(); i++)
            ReadIndex(static_cast<int>(i), d);
        ReadDictionary(d);
    }

  private:
    /* The rows family as a full scan reads it: ahead, in chunks cut at the split keys. */
    void ReadRows(Digest &d)
    {
        rocksdb::ReadOptions options = options_;
        options.fill_cache = false;
        Prefetcher prefetch(handle_->rows.path(), options, "", "",
                            SplitKeys(handle_->rows.Properties().get(), "", ""), false, 2);
        std::string_view key, value;
        bool timed_out = false;
        while (prefetch.Next(&key, &value, 100, &timed_out) || timed_out)
            if (!timed_out)
                DecodeRow(key, value, d);
        CheckStatus(prefetch.status(), "could not read archive");
    }

    /* An index family (backward for every other one, as ORDER BY ... DESC reads), each entry
     * decoded and its row looked up. */
    void ReadIndex(int index, Digest &d)
    {
        std::unique_ptr<rocksdb::Iterator> it(handle_->indexes[index].NewIterator(options_));
        bool backward = index % 2 == 1;
        std::string rowkey;
        std::string_view row;
        FamilyLookup rows(handle_->rows, handle_->dir);
        for (backward ? it->SeekToLast() : it->SeekToFirst(); it->Valid();
             backward ? it->Prev() : it->Next())
        {
            std::string_view key(it->key().data(), it->key().size());
            std::string_view value(it->value().data(), it->value().size());
            layout_.RowKeyFromIndexKey(index, key, rowkey);
            DecodeKey(key, 0, layout_.IndexKey(index), d);
            DecodeKey(value, 0, layout_.Include(index), d);
            if (!rows.Find(rowkey, &row))
                throw StatusError(rocksdb::Status::Corruption("index entry without a row"),
                                  "could not read archive");
            DecodeRow(rowkey, row, d);
        }
        CheckStatus(it->status(), "could not read archive");
    }

    /* The dictionary family, as restore loads it. */
    void ReadDictionary(Digest &d)
    {
        if (!HasDictionary(handle_->manifest))
            return;
        std::unique_ptr<rocksdb::Iterator> it(handle_->dictionary.NewIterator(options_));
        for (it->SeekToFirst(); it->Valid(); it->Next())
        {
            int column = 0;
            uint32_t id = 0;
            if (!ParseDictionaryKey(std::string_view(it->key().data(), it->key().size()), &column,
                                    &id))
                throw StatusError(rocksdb::Status::Corruption("malformed dictionary key"),
                                  "archive failed verification");
            d.AddInt(column);
            d.AddInt(id);
            d.Add(std::string_view(it->value().data(), it->value().size()));
        }
        CheckStatus(it->status(), "could not read archive");
    }

    /* A row as RowCodec::DecodeRow reads it, the Datums aside. */
    void DecodeRow(std::string_view rowkey, std::string_view value, Digest &d)
    {
        if (DecodeKey(rowkey, 0, layout_.RowKey(), d) != rowkey.size())
            throw KeyFormatError("archived row key has trailing bytes");
        int64_t partition = 0;
        if (layout_.PartitionValue(rowkey, &partition))
            d.AddInt(partition);
        /* the datums point into the value: it is aligned first, as the backend aligns it */
        aligned_.assign((value.size() + 7) / 8 + 1, 0);
        memcpy(aligned_.data(), value.data(), value.size());
        std::string_view tuple(reinterpret_cast<const char *>(aligned_.data()), value.size());
        size_t n = layout_.Columns().size();
        fields_.assign(n, StoredField());
        layout_.ParseValue(tuple, n, fields_.data());
        for (size_t i = 0; i < n; i++)
        {
            const StoredField &f = fields_[i];
            if (f.null)
                d.Add("NULL");
            else if (IsDictionaryColumn(static_cast<int>(i)))
                d.Add(ResolveDictionaryValue(static_cast<int>(i), tuple.substr(f.offset, f.size)));
            else
                d.Add(tuple.substr(f.offset, f.size));
        }
    }

    bool IsDictionaryColumn(int column) const
    {
        for (int c : layout_.DictionaryColumns())
            if (c == column)
                return true;
        return false;
    }

    /* A dictionary column's value from its stored varlena, as DecodeDictionaryColumn reads it. */
    std::string ResolveDictionaryValue(int column, std::string_view varlena)
    {
        /* a one-byte header has its low bit set; a four-byte one is aligned and uncompressed */
        std::string_view stored = varlena.substr((varlena[0] & 0x01) != 0 ? 1 : 4);
        bool reference = false;
        uint32_t id = 0;
        std::string_view bytes;
        if (!ParseDictionaryValue(stored, &reference, &id, &bytes))
            throw KeyFormatError("archived row holds a malformed dictionary value");
        if (!reference)
            return std::string(bytes);
        std::string_view value;
        if (!FamilyLookup(handle_->dictionary, handle_->dir)
                 .Find(DictionaryKey(column, id), &value))
            throw KeyFormatError("archived row refers to a missing dictionary entry");
        return std::string(value);
    }

    std::shared_ptr<ArchiveHandle> handle_;
    const RowLayout &layout_;
    rocksdb::ReadOptions options_;
    std::vector<uint64_t> aligned_;
    std::vector<StoredField> fields_;
};

/* Reads the archive in dir as a scan of the seed's foreign table would; returns the digest. */
uint64_t ReadArchive(const std::string &dir)
{
    const Seed &seed = TheSeed();
    std::shared_ptr<Manifest> m = ArchiveManifest(dir);
    CheckManifestDescribes(*m, seed.indexes, seed.manifest.range_from, seed.manifest.range_to,
                           seed.manifest.partition_column_index + 1);
    RowLayout layout(*m, BindColumns(*m));
    Digest d;
    Reader(OpenArchive(dir), layout).ReadAll(d);
    return d.value();
}

/* What a reader takes from a manifest: two manifests that read the same must give the same. */
std::string ReadingView(const Manifest &m)
{
    json columns = json::array();
    for (const ManifestColumn &c : m.columns)
        columns.push_back({c.name, c.type_oid, c.type_name, c.typmod, static_cast<int>(c.kind),
                           c.fixed_len, c.dictionary});
    return json{columns, IndexesOption(m), m.partition_column_index}.dump();
}

/* The input, read front to back; reads past its end give zeros. */
class Input
{
  public:
    Input(const uint8_t *data, size_t size) : data_(data), size_(size) {}
    bool Done() const { return pos_ >= size_; }
    uint8_t Byte() { return pos_ < size_ ? data_[pos_++] : 0; }
    uint32_t U16()
    {
        uint32_t low = Byte();
        return low | static_cast<uint32_t>(Byte()) << 8;
    }
    uint32_t U32()
    {
        uint32_t low = U16();
        return low | U16() << 16;
    }
    std::string Bytes(size_t n)
    {
        std::string out;
        while (n-- > 0 && !Done())
            out.push_back(static_cast<char>(Byte()));
        return out;
    }
    std::string Rest() { return Bytes(size_ - pos_); }

  private:
    const uint8_t *data_;
    size_t size_;
    size_t pos_ = 0;
};

/* JSON pointers of every node of doc but the root, in document order. */
void CollectNodes(const json &doc, const json::json_pointer &at,
                  std::vector<json::json_pointer> *out)
{
    if (doc.is_object())
        for (auto it = doc.begin(); it != doc.end(); ++it)
        {
            out->push_back(at / it.key());
            CollectNodes(*it, at / it.key(), out);
        }
    else if (doc.is_array())
        for (size_t i = 0; i < doc.size(); i++)
        {
            out->push_back(at / i);
            CollectNodes(doc[i], at / i, out);
        }
}

/* Every string of the seed's manifest: names a lie may swap in. */
const std::vector<std::string> &SeedStrings()
{
    static const std::vector<std::string> strings = []
    {
        std::vector<std::string> out;
        json doc = json::parse(TheSeed().manifest_text);
        std::vector<json::json_pointer> nodes;
        CollectNodes(doc, json::json_pointer(), &nodes);
        for (const auto &p : nodes)
            if (doc.at(p).is_string())
                out.push_back(doc.at(p).get<std::string>());
        return out;
    }();
    return strings;
}

/* A value to set a manifest node to, chosen by the input: mostly one of the same type (a lie
 * the parser accepts), else any. */
json NewValue(Input &in, const json &old)
{
    uint8_t how = in.Byte();
    if (how < 160 && old.is_boolean())
        return !old.get<bool>();
    if (how < 160 && (old.is_number_integer() || old.is_number_unsigned()))
        return old.get<int64_t>() + static_cast<int8_t>(in.Byte());
    if (how < 160 && old.is_string())
        return SeedStrings()[in.Byte() % SeedStrings().size()];
    switch (how % 8)
    {
        case 0:
            return static_cast<int8_t>(in.Byte());
        case 1:
        {
            uint64_t high = in.U32();
            return static_cast<int64_t>(high << 32 | in.U32());
        }
        case 2:
            return (in.Byte() & 1) != 0;
        case 3:
            return nullptr;
        case 4:
            return SeedStrings()[in.Byte() % SeedStrings().size()];
        case 5:
            return in.Bytes(in.Byte() % 16);
        case 6:
            return json::array();
        default:
            return json::object();
    }
}

/* Edits the manifest doc as the input says (op: 0 set, 1 remove, 2 copy a node over another);
 * returns what it did. */
std::string EditManifest(Input &in, int op, json &doc)
{
    std::vector<json::json_pointer> nodes;
    CollectNodes(doc, json::json_pointer(), &nodes);
    if (nodes.empty())
        return "nothing to edit";
    const json::json_pointer &target = nodes[in.U16() % nodes.size()];
    if (op == 0)
    {
        doc.at(target) = NewValue(in, doc.at(target));
        return "set " + target.to_string() + " to " +
               doc.at(target).dump(-1, ' ', false, json::error_handler_t::replace);
    }
    if (op == 1)
    {
        json &parent = doc.at(target.parent_pointer());
        if (parent.is_object())
            parent.erase(target.back());
        else
            parent.erase(std::stoul(target.back()));
        return "remove " + target.to_string();
    }
    const json::json_pointer &source = nodes[in.U16() % nodes.size()];
    doc.at(target) = json(doc.at(source));
    return "copy " + source.to_string() + " over " + target.to_string();
}

/*
 * Decodes bytes as the seed's families might hold them, without RocksDB: as a stored row, a row
 * key, each index's key (and the row key rebuilt from it), INCLUDE values and dictionary values.
 * Each may be refused; what parses must lie within the bytes, each field aligned as its column
 * needs (the backend reads fixed-length values in place).
 */
void DecodeRaw(std::string_view bytes)
{
    const Manifest &m = TheSeed().manifest;
    static const RowLayout layout(m, BindColumns(m));
    std::vector<uint64_t> aligned((bytes.size() + 7) / 8 + 1);
    memcpy(aligned.data(), bytes.data(), bytes.size());
    std::string_view tuple(reinterpret_cast<const char *>(aligned.data()), bytes.size());
    std::vector<StoredField> fields(layout.Columns().size());
    Digest d;
    auto refused = [](auto &&decode)
    {
        try
        {
            decode();
        }
        catch (const KeyFormatError &)
        {
        }
    };
    refused(
        [&]
        {
            layout.ParseValue(tuple, fields.size(), fields.data());
            for (size_t i = 0; i < fields.size(); i++)
            {
                const StoredColumn &c = layout.Columns()[i];
                const StoredField &f = fields[i];
                size_t align = c.align == 'd' ? 8 : c.align == 'i' ? 4 : c.align == 's' ? 2 : 1;
                if (!f.null &&
                    (f.offset + f.size > tuple.size() || (c.len > 0 && f.offset % align != 0)))
                    Fail("a stored row's field lies outside the row or unaligned");
            }
        });
    refused([&] { DecodeKey(bytes, 0, layout.RowKey(), d); });
    refused(
        [&]
        {
            int64_t partition;
            layout.PartitionValue(bytes, &partition);
        });
    for (size_t i = 0; i < m.indexes.size(); i++)
    {
        std::string rowkey;
        refused(
            [&]
            {
                DecodeKey(bytes, 0, layout.IndexKey(static_cast<int>(i)), d);
                layout.RowKeyFromIndexKey(static_cast<int>(i), bytes, rowkey);
                DecodeKey(rowkey, 0, layout.RowKey(), d);
            });
        refused([&] { DecodeKey(bytes, 0, layout.Include(static_cast<int>(i)), d); });
    }
    bool reference = false;
    uint32_t id = 0;
    std::string_view inline_bytes;
    if (ParseDictionaryValue(bytes, &reference, &id, &inline_bytes) && !reference &&
        inline_bytes.data() + inline_bytes.size() != bytes.data() + bytes.size())
        Fail("an inline dictionary value does not end with the stored value");
    int column = 0;
    ParseDictionaryKey(bytes, &column, &id);
}

constexpr size_t kMaxOps = 8;

/* An op byte from this value on: the rest of the input is decoded directly (DecodeRaw). */
constexpr uint8_t kRawOp = 0xF0;

/*
 * The seed's files with the input's corruptions applied. Each op is a byte (below kRawOp,
 * modulo 7), then its arguments:
 *   0 flip (file, offset, xor mask)   1 truncate (file, bytes cut)   2 remove (file)
 *   3 set a manifest node (node, value)   4 remove a manifest node (node)
 *   5 copy a manifest node over another (target, source)   6 the rest of the input replaces
 *   the manifest's text
 * An op byte of kRawOp or more puts the rest of the input in *raw, for DecodeRaw.
 */
std::map<std::string, std::string> Corrupt(Input &in, std::vector<std::string> *done,
                                           std::optional<std::string> *raw)
{
    std::map<std::string, std::string> files = TheSeed().files;
    json doc = json::parse(TheSeed().manifest_text);
    for (size_t ops = 0; ops < kMaxOps && !in.Done(); ops++)
    {
        uint8_t op_byte = in.Byte();
        if (op_byte >= kRawOp)
        {
            *raw = in.Rest();
            done->push_back("decode " + std::to_string(raw->value().size()) + " bytes");
            break;
        }
        int op = op_byte % 7;
        if (op >= 3 && op <= 5)
        {
            done->push_back(EditManifest(in, op - 3, doc));
            /* a string from the input's bytes may not be UTF-8 */
            files[kManifestFile] = doc.dump(1, ' ', false, json::error_handler_t::replace);
            continue;
        }
        if (op == 6)
        {
            files[kManifestFile] = in.Rest();
            done->push_back("replace the manifest's text");
            break;
        }
        if (files.empty())
            break;
        auto file = std::next(files.begin(), in.Byte() % files.size());
        std::string &bytes = file->second;
        if (op == 0 && !bytes.empty())
        {
            size_t at = in.U32() % bytes.size();
            uint8_t mask = in.Byte();
            bytes[at] = static_cast<char>(bytes[at] ^ (mask == 0 ? 1 : mask));
            done->push_back("flip byte " + std::to_string(at) + " of " + file->first);
        }
        else if (op == 1)
        {
            bytes.resize(bytes.size() - in.U32() % (bytes.size() + 1));
            done->push_back("truncate " + file->first + " to " + std::to_string(bytes.size()));
        }
        else if (op == 2)
        {
            done->push_back("remove " + file->first);
            files.erase(file);
        }
    }
    return files;
}

/* Makes the work directory hold files: writes those that differ from what it holds. */
void WriteFiles(const std::map<std::string, std::string> &files)
{
    static std::map<std::string, std::string> written;
    const std::string &dir = WorkDir();
    fs::create_directories(fs::path(dir) / kDbSubdir);
    for (auto it = written.begin(); it != written.end();)
        if (files.count(it->first) == 0)
        {
            fs::remove(fs::path(dir) / it->first);
            it = written.erase(it);
        }
        else
            ++it;
    for (const auto &[path, bytes] : files)
    {
        auto found = written.find(path);
        if (found != written.end() && found->second == bytes)
            continue;
        std::ofstream out(fs::path(dir) / path, std::ios::binary | std::ios::trunc);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        if (!out)
            Fail("cannot write " + path);
        written[path] = bytes;
    }
}

/* Drops what this process keeps of the previous input's archive: handles, manifest, blocks. */
void ForgetEverything()
{
    ForgetArchive(WorkDir());
    static rocksdb::Options options = ArchiveDbOptions();
    auto *table = options.table_factory->GetOptions<rocksdb::BlockBasedTableOptions>();
    if (table != nullptr && table->block_cache)
        table->block_cache->EraseUnRefEntries();
}

void LoadSeed(const std::string &dir)
{
    Seed &seed = TheSeed();
    for (const auto &entry : fs::recursive_directory_iterator(dir))
        if (entry.is_regular_file())
            seed.files[fs::relative(entry.path(), dir).string()] =
                ReadWholeFile(entry.path().string());
    seed.manifest_text = seed.files.at(kManifestFile);
    seed.manifest = ManifestFromJson(seed.manifest_text);
    seed.indexes = IndexesOption(seed.manifest);
    WriteFiles(seed.files);
    seed.digest = ReadArchive(WorkDir());
    ForgetEverything();
}

void PrintOutcomes()
{
    fprintf(stderr, "archive_fuzz outcomes:");
    for (const auto &[outcome, count] : Outcomes())
        fprintf(stderr, " %s=%llu", outcome.c_str(), static_cast<unsigned long long>(count));
    fprintf(stderr, "\n");
    std::error_code ignored;
    fs::remove_all(WorkDir(), ignored);
}

/* The outcome name of a RocksDB status: its code. */
std::string StatusOutcome(const rocksdb::Status &status)
{
    std::string text = status.ToString();
    return "status:" + text.substr(0, text.find(':'));
}

/*
 * The manifest without the files it names, as archives sealed before manifests named them have
 * it (their reader learns the files from the database); nothing when the text is no JSON object
 * or names no file.
 */
std::optional<std::string> WithoutFileNames(const std::string &manifest_text)
{
    json m = json::parse(manifest_text, nullptr, false);
    if (m.is_discarded() || !m.is_object())
        return std::nullopt;
    size_t removed = m.erase("dictionary_file");
    auto strip = [&](json &family)
    {
        if (family.is_object())
            removed += family.erase("file");
    };
    if (m.contains("rows"))
        strip(m["rows"]);
    if (m.contains("indexes") && m["indexes"].is_array())
        for (json &family : m["indexes"])
            strip(family);
    if (removed == 0)
        return std::nullopt;
    return m.dump();
}

/*
 * Reads the corrupted archive the files make: it must read as the seed reads, through a manifest
 * that reads like the seed's, or end in one of the engine's errors.
 */
void ReadCorrupted(const std::map<std::string, std::string> &files,
                   const std::vector<std::string> &done)
{
    WriteFiles(files);
    std::string outcome = "data";
    std::string message;
    try
    {
        uint64_t digest = ReadArchive(WorkDir());
        const Manifest &read = *ArchiveManifest(WorkDir());
        if (ReadingView(read) == ReadingView(TheSeed().manifest) && digest != TheSeed().digest)
        {
            for (const std::string &what : done)
                fprintf(stderr, "archive_fuzz: - %s\n", what.c_str());
            Fail("the archive read differently from the seed through a manifest that reads "
                 "like the seed's: rows were lost or changed without an error");
        }
    }
    catch (const StatusError &e)
    {
        outcome = StatusOutcome(e.status());
        message = e.what();
    }
    catch (const KeyFormatError &e)
    {
        outcome = "key_format";
        message = e.what();
    }
    catch (const ManifestError &e)
    {
        outcome = "manifest";
        message = e.what();
    }
    catch (const BindError &e)
    {
        outcome = "bind";
        message = e.what();
    }
    Outcomes()[outcome]++;
    if (getenv("ARCHIVE_FUZZ_VERBOSE") != nullptr)
    {
        for (const std::string &what : done)
            fprintf(stderr, "archive_fuzz: - %s\n", what.c_str());
        fprintf(stderr, "archive_fuzz: %s %s\n", outcome.c_str(), message.c_str());
    }
    ForgetEverything();
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    const char *seed = getenv("PERMANODE_ARCHIVE_SEED");
    if (seed == nullptr)
        Fail("set PERMANODE_ARCHIVE_SEED to tests/fuzz/archive_seed");
    const char *tmp = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    std::string pattern = std::string(tmp) + "/archive_fuzz.XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr)
        Fail("cannot make a work directory");
    WorkDir() = pattern + "/archive";
    try
    {
        LoadSeed(seed);
    }
    catch (const std::exception &e)
    {
        Fail(std::string("the seed archive does not read: ") + e.what());
    }
    atexit(PrintOutcomes);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Input in(data, size);
    std::vector<std::string> done;
    std::optional<std::string> raw;
    std::map<std::string, std::string> files = Corrupt(in, &done, &raw);
    if (raw)
    {
        DecodeRaw(*raw);
        Outcomes()["decoded"]++;
        return 0;
    }
    ReadCorrupted(files, done);
    /* the same corruption of an archive sealed before manifests named their files */
    auto manifest = files.find(kManifestFile);
    if (manifest == files.end())
        return 0;
    if (std::optional<std::string> older = WithoutFileNames(manifest->second))
    {
        manifest->second = std::move(*older);
        done.push_back("read as an archive whose manifest names no files");
        ReadCorrupted(files, done);
    }
    return 0;
}
