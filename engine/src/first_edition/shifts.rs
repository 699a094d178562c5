//! Models moved or placed by the rules rather than by a walk: falling
//! back after a failed morale duel, pushes, and a summoned model's arrival.

use super::damage::kill;
use super::facts::Fact;
use super::field;
use super::flow::Run;
use super::resolve::gain_condition;
use super::skirmish::ModelId;

/// A failed morale duel: twice Wk away from the terror (or to the nearest
/// edge); a model already at the edge leaves the table.
pub(super) fn fall_back(run: &mut Run, id: ModelId, terror: ModelId) {
    let game = &*run.game;
    let (Some(model), Some(source)) = (game.model(id).cloned(), game.model(terror)) else {
        return;
    };
    let (Some(from), Some(away_from)) = (field::at(&model), field::at(source)) else {
        return;
    };
    let direction = if field::engaged(game, &model, source) {
        from.minus(away_from).unit()
    } else {
        field::nearest_edge(from)
    };
    let distance = 2.0 * f64::from(model.card.wk);
    let goal = from.plus(direction.scale(distance));
    let end = field::straight_move(game, &model, from, goal, distance, None);
    if end.dist(from) < 0.1 {
        kill(run, id, None);
        return;
    }
    run.emit(Fact::Placed {
        model: id,
        at: field::point(end),
    });
    run.emit(Fact::FellBack { model: id });
}

/// Pushes a model directly away from `source` (negative: toward it),
/// without disengaging strikes.
pub(super) fn push(run: &mut Run, id: ModelId, source: ModelId, inches: i8) {
    let game = &*run.game;
    let (Some(model), Some(origin)) = (game.model(id).cloned(), game.model(source).cloned()) else {
        return;
    };
    let (Some(from), Some(centre)) = (field::at(&model), field::at(&origin)) else {
        return;
    };
    if id == source || !model.on_table() {
        return;
    }
    let distance = f64::from(inches.unsigned_abs());
    let direction = if inches >= 0 {
        from.minus(centre).unit()
    } else {
        centre.minus(from).unit()
    };
    let toward = from.plus(direction.scale(distance));
    let stop_at = (inches < 0).then_some(&origin);
    let end = field::straight_move(game, &model, from, toward, distance, stop_at);
    if end.dist(from) > 1e-6 {
        run.emit(Fact::Placed {
            model: id,
            at: field::point(end),
        });
    }
}

/// Places a model of the summoner's crew wholly within 6" of it, at the
/// first free spot around it, with the conditions a summoning gives.
pub(super) fn summon(run: &mut Run, caster: ModelId, name: &str) {
    let Some(card) = run.game.summonable.iter().find(|c| c.name == name).cloned() else {
        return;
    };
    let Some(summoner) = run.game.model(caster).cloned() else {
        return;
    };
    let Some(centre) = field::at(&summoner) else {
        return;
    };
    let id = ModelId(u16::try_from(run.game.models.len()).unwrap_or(u16::MAX));
    run.emit(Fact::Summoned {
        model: id,
        seat: summoner.seat,
        card: Box::new(card.clone()),
    });
    let Some(new) = run.game.model(id).cloned() else {
        return;
    };
    let near = field::radius(&summoner.card) + field::radius(&card) + 0.1;
    let spot = [0.0, 1.5, 3.0].into_iter().find_map(|further| {
        (0..16).find_map(|k| {
            let angle = f64::from(k) * std::f64::consts::PI / 8.0;
            let p = centre.plus(
                crate::table::geometry::V2::new(angle.cos(), angle.sin()).scale(near + further),
            );
            field::placement_problem(run.game, &new, p)
                .is_none()
                .then_some(p)
        })
    });
    let Some(spot) = spot else {
        return;
    };
    run.emit(Fact::Placed {
        model: id,
        at: field::point(spot),
    });
    let arriving: Vec<String> = run
        .game
        .conditions
        .conditions
        .iter()
        .filter(|c| c.on_summon)
        .map(|c| c.name.clone())
        .collect();
    for name in arriving {
        gain_condition(run, id, &name, 1);
    }
}
