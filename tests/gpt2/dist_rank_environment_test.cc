// The rank environment from fabricated launcher variables: torchrun's,
// Open MPI's, both at once, none, and each kind of malformed value.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "reference_workloads/gpt2/dist/rank_environment.h"

namespace damscope::gpt2 {
namespace {

using Variables = std::map<std::string, std::string>;

Result<RankEnvironment> parse(const Variables& vars) {
  return rankEnvironment([&vars](const char* name) -> const char* {
    const auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  });
}

std::string errorOf(const Variables& vars) {
  const Result<RankEnvironment> env = parse(vars);
  EXPECT_FALSE(env.ok());
  return env.ok() ? std::string() : env.error().message();
}

TEST(RankEnvironment, NoLauncherIsOneRank) {
  const Result<RankEnvironment> env = parse({});
  ASSERT_TRUE(env.ok()) << env.error().message();
  EXPECT_EQ(env->launcher, Launcher::kNone);
  EXPECT_EQ(env->rank, 0);
  EXPECT_EQ(env->world_size, 1);
  EXPECT_EQ(env->local_rank, 0);
  EXPECT_EQ(env->local_world_size, 1);
  EXPECT_EQ(env->master_addr, "127.0.0.1");
  EXPECT_EQ(env->master_port, 29500);
}

TEST(RankEnvironment, TorchrunSetsEveryFigure) {
  const Result<RankEnvironment> env = parse({{"RANK", "5"},
                                             {"WORLD_SIZE", "8"},
                                             {"LOCAL_RANK", "1"},
                                             {"LOCAL_WORLD_SIZE", "4"},
                                             {"MASTER_ADDR", "node0"},
                                             {"MASTER_PORT", "29611"}});
  ASSERT_TRUE(env.ok()) << env.error().message();
  EXPECT_EQ(env->launcher, Launcher::kTorchrun);
  EXPECT_EQ(env->rank, 5);
  EXPECT_EQ(env->world_size, 8);
  EXPECT_EQ(env->local_rank, 1);
  EXPECT_EQ(env->local_world_size, 4);
  EXPECT_EQ(env->master_addr, "node0");
  EXPECT_EQ(env->master_port, 29611);
}

TEST(RankEnvironment, TorchrunWithoutLocalVariablesIsOneNode) {
  const Result<RankEnvironment> env = parse({{"RANK", "1"}, {"WORLD_SIZE", "2"}});
  ASSERT_TRUE(env.ok()) << env.error().message();
  EXPECT_EQ(env->local_rank, 1);
  EXPECT_EQ(env->local_world_size, 2);
}

TEST(RankEnvironment, OpenMpiVariables) {
  const Result<RankEnvironment> env = parse({{"OMPI_COMM_WORLD_RANK", "3"},
                                             {"OMPI_COMM_WORLD_SIZE", "4"},
                                             {"OMPI_COMM_WORLD_LOCAL_RANK", "1"},
                                             {"OMPI_COMM_WORLD_LOCAL_SIZE", "2"}});
  ASSERT_TRUE(env.ok()) << env.error().message();
  EXPECT_EQ(env->launcher, Launcher::kMpirun);
  EXPECT_EQ(env->rank, 3);
  EXPECT_EQ(env->world_size, 4);
  EXPECT_EQ(env->local_rank, 1);
  EXPECT_EQ(env->local_world_size, 2);
  EXPECT_EQ(env->master_port, 29500);
}

TEST(RankEnvironment, TorchrunTakesPrecedenceOverOpenMpi) {
  const Result<RankEnvironment> env = parse({{"RANK", "0"},
                                             {"WORLD_SIZE", "2"},
                                             {"OMPI_COMM_WORLD_RANK", "7"},
                                             {"OMPI_COMM_WORLD_SIZE", "not-read"}});
  ASSERT_TRUE(env.ok()) << env.error().message();
  EXPECT_EQ(env->launcher, Launcher::kTorchrun);
  EXPECT_EQ(env->rank, 0);
  EXPECT_EQ(env->world_size, 2);
}

TEST(RankEnvironment, LauncherNames) {
  EXPECT_STREQ(launcherName(Launcher::kNone), "none");
  EXPECT_STREQ(launcherName(Launcher::kTorchrun), "torchrun");
  EXPECT_STREQ(launcherName(Launcher::kMpirun), "mpirun");
}

TEST(RankEnvironment, NotANumberNamesTheVariableAndValue) {
  EXPECT_EQ(errorOf({{"RANK", "one"}, {"WORLD_SIZE", "2"}}), "RANK='one' is not a whole number");
  EXPECT_EQ(errorOf({{"RANK", "0"}, {"WORLD_SIZE", "2x"}}),
            "WORLD_SIZE='2x' is not a whole number");
  EXPECT_EQ(errorOf({{"RANK", ""}, {"WORLD_SIZE", "2"}}), "RANK='' is not a whole number");
  EXPECT_EQ(errorOf({{"OMPI_COMM_WORLD_RANK", "0"}, {"OMPI_COMM_WORLD_SIZE", "99999999999"}}),
            "OMPI_COMM_WORLD_SIZE='99999999999' is not a whole number");
}

TEST(RankEnvironment, NegativeValue) {
  EXPECT_EQ(errorOf({{"RANK", "-1"}, {"WORLD_SIZE", "2"}}), "RANK=-1 is negative");
  EXPECT_EQ(errorOf({{"RANK", "0"}, {"WORLD_SIZE", "2"}, {"LOCAL_RANK", "-3"}}),
            "LOCAL_RANK=-3 is negative");
}

TEST(RankEnvironment, RankAtOrAboveWorldSize) {
  EXPECT_EQ(errorOf({{"RANK", "2"}, {"WORLD_SIZE", "2"}}), "RANK=2 is not below WORLD_SIZE=2");
  EXPECT_EQ(errorOf({{"OMPI_COMM_WORLD_RANK", "4"}, {"OMPI_COMM_WORLD_SIZE", "4"}}),
            "OMPI_COMM_WORLD_RANK=4 is not below OMPI_COMM_WORLD_SIZE=4");
  EXPECT_EQ(errorOf({{"RANK", "0"}, {"WORLD_SIZE", "0"}}),
            "WORLD_SIZE=0: a job has at least one rank");
}

TEST(RankEnvironment, LocalFiguresInconsistent) {
  EXPECT_EQ(
      errorOf({{"RANK", "0"}, {"WORLD_SIZE", "4"}, {"LOCAL_RANK", "2"}, {"LOCAL_WORLD_SIZE", "2"}}),
      "LOCAL_RANK=2 is not below LOCAL_WORLD_SIZE=2");
  EXPECT_EQ(errorOf({{"RANK", "0"}, {"WORLD_SIZE", "2"}, {"LOCAL_WORLD_SIZE", "4"}}),
            "LOCAL_WORLD_SIZE=4 is not in [1, WORLD_SIZE=2]");
}

TEST(RankEnvironment, HalfALauncher) {
  EXPECT_EQ(errorOf({{"WORLD_SIZE", "2"}}), "WORLD_SIZE=2 is set but RANK is not");
  EXPECT_EQ(errorOf({{"OMPI_COMM_WORLD_RANK", "1"}}),
            "OMPI_COMM_WORLD_RANK=1 is set but OMPI_COMM_WORLD_SIZE is not");
}

TEST(RankEnvironment, MasterAddressAndPort) {
  EXPECT_EQ(errorOf({{"MASTER_PORT", "http"}}), "MASTER_PORT='http' is not a whole number");
  EXPECT_EQ(errorOf({{"MASTER_PORT", "0"}}), "MASTER_PORT=0 is not a TCP port (1..65535)");
  EXPECT_EQ(errorOf({{"MASTER_PORT", "65536"}}), "MASTER_PORT=65536 is not a TCP port (1..65535)");
  EXPECT_EQ(errorOf({{"MASTER_ADDR", ""}}), "MASTER_ADDR is set but empty");
}

}  // namespace
}  // namespace damscope::gpt2
