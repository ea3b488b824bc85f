// PathTemplate matches the paths that httplib's regex "literal([^/]+)literal" matched.
#include <stdexcept>

#include <gtest/gtest.h>

#include "server/path_template.hpp"

namespace permanode::http
{
namespace
{

TEST(PathTemplateTest, LiteralPathMatchesOnlyItself)
{
    PathTemplate route("/api/core/v2/info");
    PathParams params;
    EXPECT_TRUE(route.Match("/api/core/v2/info", params));
    EXPECT_TRUE(params.empty());
    EXPECT_FALSE(route.Match("/api/core/v2/info/", params));
    EXPECT_FALSE(route.Match("/api/core/v2/inf", params));
    EXPECT_FALSE(route.Match("/api/core/v2/infos", params));
    EXPECT_FALSE(route.Match("/api//core/v2/info", params));
    EXPECT_FALSE(route.Match("api/core/v2/info", params));
    EXPECT_FALSE(route.Match("", params));
}

TEST(PathTemplateTest, ParameterIsOneNonEmptySegment)
{
    PathTemplate route("/api/core/v2/blocks/{blockId}/metadata");
    PathParams params;
    ASSERT_TRUE(route.Match("/api/core/v2/blocks/0x12/metadata", params));
    EXPECT_EQ(params, PathParams{"0x12"});
    EXPECT_FALSE(route.Match("/api/core/v2/blocks//metadata", params));
    EXPECT_FALSE(route.Match("/api/core/v2/blocks/0x12", params));
    EXPECT_FALSE(route.Match("/api/core/v2/blocks/a/b/metadata", params));
    EXPECT_FALSE(route.Match("/api/core/v2/blocks/0x12/metadata/", params));
}

TEST(PathTemplateTest, ParameterAtTheEndAndSeveralParameters)
{
    PathTemplate last("/blocks/{id}");
    PathParams params;
    ASSERT_TRUE(last.Match("/blocks/a.b?c", params));
    EXPECT_EQ(params, PathParams{"a.b?c"});
    EXPECT_FALSE(last.Match("/blocks/", params));
    EXPECT_FALSE(last.Match("/blocks", params));

    PathTemplate two("/a/{x}/b/{y}");
    ASSERT_TRUE(two.Match("/a/1/b/2", params));
    EXPECT_EQ(params, (PathParams{"1", "2"}));
    EXPECT_FALSE(two.Match("/a/1/c/2", params));
}

TEST(PathTemplateTest, ParameterMustBeAWholeSegment)
{
    EXPECT_THROW(PathTemplate("/blocks/{id}.json"), std::invalid_argument);
    EXPECT_THROW(PathTemplate("/blocks/x{id}"), std::invalid_argument);
    EXPECT_THROW(PathTemplate("blocks"), std::invalid_argument);
}

} // namespace
} // namespace permanode::http
