"""Queue commands per campaign and run them in batches (group commit; see ``runner``).

While one batch for a campaign is being decided and committed, commands for that campaign
wait in its queue; the next batch takes everything that queued up (up to ``max_batch``). A
quiet server therefore commits each command alone with no added delay, and a busy one pays
one durable commit per batch instead of one per command. A caller that gave up (deadline,
disconnect) before its batch started is dropped from it rather than executed late.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import Executor

from mekref.daemon.campaigns import CampaignRunner, Executed
from mekref.rules.messages import Command

MAX_BATCH = 64


class CommandBatcher:
    def __init__(self, runner: CampaignRunner, executor: Executor, max_batch: int = MAX_BATCH):
        self._runner = runner
        self._executor = executor
        self._max = max_batch
        self._queues: dict[str, list[tuple[Command, asyncio.Future[Executed]]]] = {}
        self._draining: set[str] = set()
        # The loop keeps only weak references to tasks: hold them until they finish.
        self._tasks: set[asyncio.Task[None]] = set()

    async def execute(self, campaign_id: str, command: Command) -> Executed:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Executed] = loop.create_future()
        self._queues.setdefault(campaign_id, []).append((command, future))
        if campaign_id not in self._draining:
            self._draining.add(campaign_id)
            task = loop.create_task(self._drain(campaign_id))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        return await future

    async def _drain(self, campaign_id: str) -> None:
        loop = asyncio.get_running_loop()
        queue = self._queues[campaign_id]
        try:
            while queue:
                batch = [(c, f) for c, f in queue[: self._max] if not f.done()]
                del queue[: self._max]
                if not batch:
                    continue
                commands = [c for c, _ in batch]
                try:
                    results = await loop.run_in_executor(
                        self._executor, self._runner.execute_many, campaign_id, commands
                    )
                except Exception as exc:  # the commit failed: nobody's command was applied
                    for _, future in batch:
                        if not future.done():
                            future.set_exception(exc)
                    continue
                for (_, future), result in zip(batch, results, strict=True):
                    if future.done():
                        continue
                    if isinstance(result, Exception):
                        future.set_exception(result)
                    else:
                        future.set_result(result)
                # One turn of the loop (no added delay) before the next batch: the calls whose
                # requests were read meanwhile are queued and join it. Without it a busy
                # server commits more batches of one or two commands, each paying the durable
                # commit. (More turns, while calls keep coming, measured worse: each turn is
                # the loop's own work, and the callers wait longer.)
                await asyncio.sleep(0)
        finally:
            self._draining.discard(campaign_id)
            if not queue:
                self._queues.pop(campaign_id, None)
