"""A two-stage event through the fake Discord (docs/tournaments.md T-24): the groups' record per group, who went
on, and the second stage's round 1 posted in the same channel."""
from tests.discord.harness import eventually


async def test_groups_then_knockout_are_posted_in_the_channel(harness):
    h, fake = harness, harness.fake
    await (await fake.slash(h.alice, "tournament new", game="toy", format="round_robin",
                            settings="groups=2 stage2=elimination advance=1 seeding=order")).answer()
    director = h.bot.tournaments.director
    tid = (await director.record.find())[0].id
    for i in range(4):
        await director.join(tid, f"bot:t{i}", f"Robo{i}", is_bot=True)
    await (await fake.slash(h.alice, "tournament start", number=tid)).answer()
    await h.settled()

    async def second_stage_over():
        await h.bot.tournaments.tick()
        await h.settled()
        link = await director.stages(tid)
        return "next" in link and (await director.record.get(link["next"])).status == "finished"
    await eventually(second_stage_over, timeout=30, what="both stages to end")
    text = "\n".join(m.content for m in fake.in_channel(fake.channel_id))
    assert "Группа A" in text and "Группа B" in text  # the group stage's record, group by group
    child = (await director.stages(tid))["next"]
    assert f"Во второй этап (турнир #{child}) выходят: " in text
    tour = await director.record.get(child)
    assert tour.title.endswith("плей-офф") and tour.channel_id == (await director.record.get(tid)).channel_id
    assert text.count("Тур 1 из 1") == 2  # both stages' round 1 pairing posts: one round each here
    standings = await (await fake.slash(h.alice, "tournament standings", number=tid)).answer()
    assert "Группа A" in standings.content and "Группа B" in standings.content
    assert f"Второй этап: турнир #{child}." in standings.content
    standings = await (await fake.slash(h.alice, "tournament standings", number=child)).answer()
    assert f"Это второй этап турнира #{tid}." in standings.content and "Группа" not in standings.content
