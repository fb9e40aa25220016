// Database work off the GUI thread. StoreWorker lives in a thread of its own and owns the
// one store::Database connection (a Database is not thread-safe, so only that thread
// touches it); StoreClient, on the GUI thread, queues requests to it and relays its
// answers as signals carrying value structs. Every failure arrives as failed(), never as
// an exception or a crash.
#pragma once

#include "diff_tree.hpp"
#include "experiment_data.hpp"
#include "run_data.hpp"

#include "idb/edf_runs.hpp"
#include "idb/store.hpp"

#include <QObject>
#include <QString>
#include <QThread>

#include <atomic>
#include <memory>

namespace idb::gui {

class StoreWorker : public QObject {
  Q_OBJECT
public:
  // Runs with more nodes than this are read in two steps (see StoreClient).
  std::atomic<std::int64_t> first_look_nodes{100000};

  // Called in the worker's thread through StoreClient, one request at a time.
  void open(const QString &url);
  void loadRun(const QString &label);
  void loadDiffSide(int side, const QString &name);
  void runQuery(const QString &sql, const idb::store::KeyValues &params);
  void openExperiment(const QString &path, const QString &override);

signals:
  void opened(const QString &location, const idb::store::QueryResult &runs);
  void runLoaded(const idb::gui::RunDataPtr &run);
  void diffSideLoaded(int side, const idb::gui::DiffSide &runs);
  void queryDone(const idb::store::QueryResult &result);
  void experimentLoaded(const idb::gui::ExperimentPtr &experiment);
  // `what`: the request that failed ("open", "run", "diff", "query", "experiment");
  // `message`:
  // one line.
  void failed(const QString &what, const QString &message);

private:
  // The rank to read first for `label`, or nullopt to read it in one step.
  std::optional<int> first_look_rank(const std::string &label);

  std::unique_ptr<store::Database> db_;
  std::string url_;                  // of db_, the database of an .edf that names none
  std::vector<store::RunInfo> runs_; // as listed when the database opened
  std::unique_ptr<edf::Connections> experiment_db_; // the last experiment's databases
};

class StoreClient : public QObject {
  Q_OBJECT
public:
  explicit StoreClient(QObject *parent = nullptr);
  ~StoreClient() override; // stops the thread after the request under way

  // Each returns at once; the answer comes as a signal.
  void open(const QString &url);
  // A run of more than setFirstLookNodes() nodes over several ranks arrives twice: first
  // its lowest rank alone (RunData::complete false), so the window has something to show
  // at once, then the whole run.
  void loadRun(const QString &label);
  // Reads a side of the diff (0: the baseline, 1: the other), each run in one step, as
  // diffSideLoaded: the run labelled `name`, or every run the label pattern `name`
  // matches (analysis::diff_side_labels, among the runs listed when the database opened).
  void loadDiffSide(int side, const QString &name);
  void runQuery(const QString &sql, const store::KeyValues &params = {});
  // Reads the experiment `path` (its database: `override` when not empty, else the
  // file's, else the open database).
  void openExperiment(const QString &path, const QString &override = {});
  // Default 100,000 nodes; 0: every run of several ranks comes in two steps.
  void setFirstLookNodes(std::int64_t nodes) { worker_->first_look_nodes = nodes; }

signals:
  void opened(const QString &location, const idb::store::QueryResult &runs);
  void runLoaded(const idb::gui::RunDataPtr &run);
  void diffSideLoaded(int side, const idb::gui::DiffSide &runs);
  void queryDone(const idb::store::QueryResult &result);
  void experimentLoaded(const idb::gui::ExperimentPtr &experiment);
  void failed(const QString &what, const QString &message);

private:
  QThread thread_;
  StoreWorker *worker_;
};

} // namespace idb::gui

Q_DECLARE_METATYPE(idb::store::QueryResult)
Q_DECLARE_METATYPE(idb::store::KeyValues)
Q_DECLARE_METATYPE(idb::gui::RunDataPtr)
Q_DECLARE_METATYPE(idb::gui::DiffSide)
Q_DECLARE_METATYPE(idb::gui::ExperimentPtr)
