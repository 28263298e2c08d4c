// `quarry query --param`: names, positions and ES|QL's typing of a value.

#include "quarry/cli/parameter_arguments.h"

#include <gtest/gtest.h>

namespace quarry::cli {
namespace {

using engine::NullParameter;
using engine::ParameterValue;

TEST(ParameterArguments, TypesAValueAsAJsonParameterIs) {
  EXPECT_EQ(parameterValue("42"), ParameterValue(int64_t{42}));
  EXPECT_EQ(parameterValue("-9223372036854775808"), ParameterValue(INT64_MIN));
  EXPECT_EQ(parameterValue("9223372036854775808"),
            ParameterValue(9223372036854775808.0));  // past int64
  EXPECT_EQ(parameterValue("2.5"), ParameterValue(2.5));
  EXPECT_EQ(parameterValue("1e3"), ParameterValue(1000.0));
  EXPECT_EQ(parameterValue(".5"), ParameterValue(0.5));
  EXPECT_EQ(parameterValue("TRUE"), ParameterValue(true));
  EXPECT_EQ(parameterValue("false"), ParameterValue(false));
  EXPECT_EQ(parameterValue("null"), ParameterValue(NullParameter{}));
  EXPECT_EQ(parameterValue("Paris"), ParameterValue(std::string("Paris")));
  EXPECT_EQ(parameterValue(""), ParameterValue(std::string("")));
  EXPECT_EQ(parameterValue("12abc"), ParameterValue(std::string("12abc")));
  EXPECT_EQ(parameterValue("inf"), ParameterValue(std::string("inf")));
  EXPECT_EQ(parameterValue("1e999"), ParameterValue(std::string("1e999")));  // no finite double
  // Double quotes make a string of what would be another kind.
  EXPECT_EQ(parameterValue("\"42\""), ParameterValue(std::string("42")));
  EXPECT_EQ(parameterValue("\"null\""), ParameterValue(std::string("null")));
}

TEST(ParameterArguments, NamesBindByNameTheOthersByPosition) {
  const engine::QueryParameters parameters =
      parameterArguments({"city=Paris", "10", "url=http://a?b=c", "x", "a b=c", "n=", "=5"});
  ASSERT_EQ(parameters.size(), 7u);
  EXPECT_EQ(parameters[0].name, "city");
  EXPECT_EQ(parameters[0].value, ParameterValue(std::string("Paris")));
  EXPECT_EQ(parameters[1].name, "1");
  EXPECT_EQ(parameters[1].value, ParameterValue(int64_t{10}));
  EXPECT_EQ(parameters[2].name, "url");
  EXPECT_EQ(parameters[2].value, ParameterValue(std::string("http://a?b=c")));
  EXPECT_EQ(parameters[3].name, "2");
  // Not a name before '=': the whole argument is a positional value.
  EXPECT_EQ(parameters[4].name, "3");
  EXPECT_EQ(parameters[4].value, ParameterValue(std::string("a b=c")));
  EXPECT_EQ(parameters[5].name, "n");
  EXPECT_EQ(parameters[5].value, ParameterValue(std::string("")));
  EXPECT_EQ(parameters[6].name, "4");
}

}  // namespace
}  // namespace quarry::cli
