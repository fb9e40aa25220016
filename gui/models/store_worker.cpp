// The store worker and its client (store_worker.hpp). The worker turns every exception of
// the store into failed(), so nothing thrown ever crosses into Qt's event loop.
#include "store_worker.hpp"

#include <QMetaObject>

#include <algorithm>

namespace idb::gui {

namespace {

store::QueryResult attributes_of(store::Database &db, const std::string &label) {
  return store::query(db,
                      "SELECT a.key, a.value FROM run_attributes a JOIN runs r USING (run_id) "
                      "WHERE r.label = :run ORDER BY a.key",
                      {{"run", label}});
}

} // namespace

void StoreWorker::open(const QString &url) {
  try {
    db_.reset();
    store::OpenOptions options;
    options.create = false;   // a mistyped path must not leave an empty database behind
    options.read_only = true; // the GUI only reads: its console cannot change the database
    db_ = store::open(url.toStdString(), options);
    url_ = url.toStdString();
    runs_ = store::runs(*db_);
    emit opened(QString::fromStdString(db_->location()), runs_table(runs_));
  } catch (const std::exception &e) {
    db_.reset();
    emit failed(QStringLiteral("open"), QString::fromStdString(e.what()));
  }
}

void StoreWorker::loadRun(const QString &label) {
  try {
    if (!db_) throw store::Error("no database is open");
    const std::string name = label.toStdString();
    store::QueryResult attributes = attributes_of(*db_, name);
    if (std::optional<int> rank = first_look_rank(name)) {
      profile::Profile part = store::read_run(*db_, name, rank);
      auto run = std::make_shared<RunData>(summarize_run(name, std::move(part), attributes));
      run->complete = false;
      emit runLoaded(RunDataPtr(std::move(run)));
    }
    profile::Profile profile = store::read_run(*db_, name);
    emit runLoaded(std::make_shared<const RunData>(
        summarize_run(name, std::move(profile), std::move(attributes))));
  } catch (const std::exception &e) {
    emit failed(QStringLiteral("run"), QString::fromStdString(e.what()));
  }
}

void StoreWorker::loadDiffSide(int side, const QString &name) {
  try {
    if (!db_) throw store::Error("no database is open");
    DiffSide runs;
    runs.name = name.toStdString();
    std::vector<std::string> labels;
    for (const store::RunInfo &r : runs_)
      labels.push_back(r.label);
    std::string why;
    const std::vector<std::string> named =
        analysis::diff_side_reads(labels, runs.name, db_->location(), why);
    if (named.empty()) throw store::Error(why);
    for (const std::string &label : named) {
      store::QueryResult attributes = attributes_of(*db_, label);
      profile::Profile profile = store::read_run(*db_, label);
      runs.runs.push_back(std::make_shared<const RunData>(
          summarize_run(label, std::move(profile), std::move(attributes))));
    }
    emit diffSideLoaded(side, runs);
  } catch (const std::exception &e) {
    emit failed(QStringLiteral("diff"), QString::fromStdString(e.what()));
  }
}

void StoreWorker::openExperiment(const QString &path, const QString &override) {
  try {
    auto connections = std::make_unique<edf::Connections>();
    auto data = std::make_shared<ExperimentData>(read_experiment(
        path.toStdString(), override.toStdString(), db_ ? url_ : std::string(), *connections));
    experiment_db_ = std::move(connections);
    emit experimentLoaded(ExperimentPtr(std::move(data)));
  } catch (const std::exception &e) {
    emit failed(QStringLiteral("experiment"), QString::fromStdString(e.what()));
  }
}

std::optional<int> StoreWorker::first_look_rank(const std::string &label) {
  auto run = std::find_if(runs_.begin(), runs_.end(),
                          [&](const store::RunInfo &r) { return r.label == label; });
  if (run == runs_.end() || run->nprocs < 2 || run->nodes <= first_look_nodes) return std::nullopt;
  store::QueryResult lowest = store::query(
      *db_,
      "SELECT min(h.rank) FROM cfh_instances h JOIN runs r USING (run_id) WHERE r.label = :run",
      {{"run", label}});
  if (lowest.rows.empty() || !lowest.rows[0][0]) return std::nullopt;
  return std::stoi(*lowest.rows[0][0]);
}

void StoreWorker::runQuery(const QString &sql, const store::KeyValues &params) {
  try {
    if (!db_) throw store::Error("no database is open");
    emit queryDone(store::query(*db_, sql.toStdString(), params));
  } catch (const std::exception &e) {
    emit failed(QStringLiteral("query"), QString::fromStdString(e.what()));
  }
}

StoreClient::StoreClient(QObject *parent) : QObject(parent), worker_(new StoreWorker) {
  qRegisterMetaType<idb::store::QueryResult>();
  qRegisterMetaType<idb::store::KeyValues>();
  qRegisterMetaType<idb::gui::RunDataPtr>();
  qRegisterMetaType<idb::gui::DiffSide>();
  qRegisterMetaType<idb::gui::ExperimentPtr>();
  worker_->moveToThread(&thread_);
  connect(&thread_, &QThread::finished, worker_, &QObject::deleteLater);
  connect(worker_, &StoreWorker::opened, this, &StoreClient::opened);
  connect(worker_, &StoreWorker::runLoaded, this, &StoreClient::runLoaded);
  connect(worker_, &StoreWorker::diffSideLoaded, this, &StoreClient::diffSideLoaded);
  connect(worker_, &StoreWorker::queryDone, this, &StoreClient::queryDone);
  connect(worker_, &StoreWorker::experimentLoaded, this, &StoreClient::experimentLoaded);
  connect(worker_, &StoreWorker::failed, this, &StoreClient::failed);
  thread_.start();
}

StoreClient::~StoreClient() {
  thread_.quit();
  thread_.wait();
}

void StoreClient::open(const QString &url) {
  QMetaObject::invokeMethod(
      worker_, [w = worker_, url] { w->open(url); }, Qt::QueuedConnection);
}

void StoreClient::loadRun(const QString &label) {
  QMetaObject::invokeMethod(
      worker_, [w = worker_, label] { w->loadRun(label); }, Qt::QueuedConnection);
}

void StoreClient::loadDiffSide(int side, const QString &name) {
  QMetaObject::invokeMethod(
      worker_, [w = worker_, side, name] { w->loadDiffSide(side, name); }, Qt::QueuedConnection);
}

void StoreClient::runQuery(const QString &sql, const store::KeyValues &params) {
  QMetaObject::invokeMethod(
      worker_, [w = worker_, sql, params] { w->runQuery(sql, params); }, Qt::QueuedConnection);
}

} // namespace idb::gui

namespace idb::gui {

void StoreClient::openExperiment(const QString &path, const QString &override) {
  QMetaObject::invokeMethod(
      worker_, [w = worker_, path, override] { w->openExperiment(path, override); },
      Qt::QueuedConnection);
}

} // namespace idb::gui
