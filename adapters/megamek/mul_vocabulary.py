"""The names a MegaMek unit list uses: which attributes and elements the MUL model reads, keeps
as ``extra``/``preserved`` or reports. Shared by the tree reader (:mod:`mul_reader`) and the
event reader (:mod:`mul_events`), which must read every file alike."""

from __future__ import annotations

BLOWN_OFF_SUFFIX = " has been blown off."

PERSON_ATTRIBUTES = {
    "name": "name",
    "nick": "nick",
    "gender": "gender",
    "clanperson": "clanperson",
    "gunnery": "gunnery",
    "gunneryL": "gunnery_l",
    "gunneryM": "gunnery_m",
    "gunneryB": "gunnery_b",
    "piloting": "piloting",
    "gunneryAero": "gunnery_aero",
    "gunneryAeroL": "gunnery_aero_l",
    "gunneryAeroM": "gunnery_aero_m",
    "gunneryAeroB": "gunnery_aero_b",
    "pilotingAero": "piloting_aero",
    "artillery": "artillery",
    "toughness": "toughness",
    "fatigue": "fatigue",
    "hits": "hits",
    "externalId": "external_id",
}
#: Per-person attributes MegaMek writes that the model keeps as ``extra`` on the person.
PERSON_EXTRA = frozenset(
    {
        "portraitCat",
        "portraitFile",
        "extraData",
        "naturalAptitudeGunnery",
        "naturalAptitudePiloting",
        "naturalAptitudeArtillery",
        "naturalAptitudeSmallArms",
        "naturalAptitudeGunneryAero",
        "naturalAptitudePilotingAero",
    }
)
CREW_ATTRIBUTES = frozenset(
    {"size", "crewType", "ejected", "initB", "commandB", "advantages", "edge", "autoeject"}
)
ENTITY_ATTRIBUTES = frozenset(
    {
        "chassis",
        "model",
        "type",
        "commander",
        "offboard",
        "hidden",
        "deployment",
        "neverDeployed",
        "velocity",
        "altitude",
        "elevation",
        "externalId",
        "quirks",
        "pickUpId",
        "unitFileUUID",
        "entityForm",
    }
)
SLOT_ATTRIBUTES = frozenset(
    {
        "index",
        "type",
        "shots",
        "isHit",
        "isDestroyed",
        "isMissing",
        "isRear",
        "isTurreted",
        "armorHit",
        "isRepairable",
        "munition",
        "capacity",
        "quirks",
    }
)
#: Entity attributes MegaMek writes (or still accepts) that the model keeps as ``extra``; any
#: other attribute is new to us and is reported once per file as well as kept.
ENTITY_EXTRA_KNOWN = frozenset(
    {
        "offboard_distance",
        "offboard_direction",
        "deploymentZone",
        "deploymentZoneWidth",
        "deploymentZoneOffset",
        "deploymentZoneAnyNWx",
        "deploymentZoneAnyNWy",
        "deploymentZoneAnySEx",
        "deploymentZoneAnySEy",
        "c3MasterIs",
        "c3UUID",
        "camoCategory",
        "camoFileName",
        "camoRotation",
        "camoScale",
        "camoOverlayStyle",
        "camoOverlayDirection",
        "camoOverlayColor",
        "armorDivisor",
        "armorEncumbering",
        "spacesuit",
        "destArmor",
        "sneakCamo",
        "sneakIR",
        "sneakECM",
        "infantrySpecializations",
        "disposableWeapon",
        "disposableWeaponFired",
        "destroyCheck",
        "armorName",
        "squadNum",
        "c3emActive",
        "c3emTurns",
    }
)
#: Entity children MegaMek writes that we keep verbatim rather than model.
PRESERVED_ELEMENTS = frozenset(
    {
        "turret2lock",
        "KF",
        "sail",
        "transportBay",
        "c3iset",
        "NC3set",
        "TowedUnits",
        "EscapedCrew",
        "EscapedPassengers",
        "modularEquipmentMount",
        "antiPersonnelMount",
        "construction_data",
    }
)

#: Per-person attributes kept as written; the numbers are in ``PERSON_NUMBERS``, and the rest
#: are ``hits``, ``externalId`` and the ``clanperson`` flag.
PERSON_TEXT = frozenset({"name", "nick", "gender"})
PERSON_NUMBERS = {
    attr: name
    for attr, name in PERSON_ATTRIBUTES.items()
    if attr not in PERSON_TEXT and attr not in ("hits", "externalId", "clanperson")
}
#: Attributes of a lone ``<pilot>`` that belong to the person or to the named crew fields.
PILOT_NAMED = frozenset(PERSON_ATTRIBUTES) | PERSON_EXTRA | CREW_ATTRIBUTES
#: ``<armor type=...>`` to the Location field it sets.
ARMOR_FIELDS = {"Front": "armor", "Internal": "internal", "Rear": "rear"}
