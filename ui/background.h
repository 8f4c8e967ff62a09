#pragma once
// Work off the GUI thread: runInBackground() runs `work(promise)` on Qt's global thread pool and
// returns the future a QFutureWatcher (a child of the view) watches, so the result arrives by
// signal on the GUI thread and a view that goes away takes its watcher with it. Cancelling is by
// a shared token the work polls (the search's progress callback), so a cancelled search still
// hands back what it ranked so far. No processEvents() anywhere.

#include <QFuture>
#include <QPromise>
#include <QThreadPool>

#include <atomic>
#include <memory>

namespace parascope::ui {

using CancelToken = std::shared_ptr<std::atomic<bool>>;

inline CancelToken newCancelToken() { return std::make_shared<std::atomic<bool>>(false); }

template <class T, class Work> QFuture<T> runInBackground(Work work)
{
    auto promise = std::make_shared<QPromise<T>>();
    QFuture<T> future = promise->future();
    promise->start();
    QThreadPool::globalInstance()->start([promise, work]() mutable {
        work(*promise);
        promise->finish();
    });
    return future;
}

} // namespace parascope::ui
