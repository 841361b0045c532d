class User:
    def __init__(self, item):
        self.username = item.get('username').get('S')
        self.name = item.get('name', {}).get('S')
        self.photos = []

    def __repr__(self):
        return "User<{} -- {}>".format(self.username, self.name)


class Photo:
    def __init__(self, item):
        self.username = item.get('username').get('S')
        self.timestamp = item.get('timestamp').get('S')
        self.location = item.get('location').get('S')
        self.reactions = []

    def __repr__(self):
        return "Photo<{} -- {}>".format(self.username, self.timestamp)


class Reaction:
    def __init__(self, item):
        self.reacting_user = item.get('reactingUser').get('S')
        self.photo = item.get('photo').get('S')
        self.reaction_type = item.get('reactionType').get('S')
        self.timestamp = item.get('timestamp').get('S')

    def __repr__(self):
        return "Reaction<{} -- {} -- {}>".format(self.reacting_user, self.photo, self.reaction_type)
