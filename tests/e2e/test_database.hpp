// A database of its own for each end-to-end test, on the test cluster.
#pragma once

#include <cctype>
#include <string>

#include <gtest/gtest.h>
#include <pqxx/pqxx>

#include "test_env.hpp"

namespace permanode::test
{

// Drops and creates `prefix` + the running test's name (lower case); returns the name.
inline std::string FreshTestDatabase(const std::string &prefix)
{
    const auto *info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = prefix + info->name();
    for (auto &c : name)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    pqxx::connection admin(TestDsn());
    pqxx::nontransaction tx(admin);
    tx.exec0("DROP DATABASE IF EXISTS " + tx.quote_name(name));
    tx.exec0("CREATE DATABASE " + tx.quote_name(name));
    return name;
}

} // namespace permanode::test
