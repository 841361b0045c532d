package sample

// The small word lists profiles are made of. They are fixed: changing one changes every
// generated dataset.

var firstNames = []string{
	"Ava", "Liam", "Olivia", "Noah", "Emma", "Oliver", "Sophia", "Elijah", "Isabella", "James",
	"Mia", "William", "Amelia", "Benjamin", "Harper", "Lucas", "Evelyn", "Henry", "Abigail", "Theo",
	"Emily", "Jack", "Ella", "Levi", "Chloe", "Mateo", "Grace", "Leo", "Zoe", "Ezra",
	"Nora", "Aiden", "Lily", "Samuel", "Hannah", "Owen", "Aria", "Daniel", "Layla", "Jacob",
	"Priya", "Ravi", "Mei", "Kenji", "Yuki", "Amara", "Kofi", "Ingrid", "Lars", "Sofia",
	"Diego", "Lucia", "Omar", "Leila", "Tomas", "Elena", "Hugo", "Ines", "Felix", "Maya",
}

var lastNames = []string{
	"Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez",
	"Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin",
	"Lee", "Perez", "Thompson", "White", "Harris", "Sanchez", "Clark", "Ramirez", "Lewis", "Robinson",
	"Walker", "Young", "Allen", "King", "Wright", "Scott", "Torres", "Nguyen", "Hill", "Flores",
	"Patel", "Kim", "Tanaka", "Okafor", "Larsen", "Novak", "Rossi", "Silva", "Cohen", "Murphy",
}

var emailDomains = []string{"example.com", "example.net", "example.org", "mail.example.com"}

var streetNames = []string{
	"Maple", "Oak", "Cedar", "Pine", "Elm", "Lake", "Hill", "Park", "River", "Sunset",
	"Washington", "Lincoln", "Highland", "Meadow", "Forest", "Church", "Mill", "Spring", "Ridge", "Harbor",
}

var streetKinds = []string{"St", "Ave", "Rd", "Blvd", "Ln", "Way", "Dr", "Ct"}

// cities are (city, state) pairs.
var cities = [][2]string{
	{"Springfield", "IL"}, {"Portland", "OR"}, {"Austin", "TX"}, {"Madison", "WI"}, {"Boulder", "CO"},
	{"Savannah", "GA"}, {"Burlington", "VT"}, {"Asheville", "NC"}, {"Tucson", "AZ"}, {"Ann Arbor", "MI"},
	{"Santa Fe", "NM"}, {"Duluth", "MN"}, {"Boise", "ID"}, {"Providence", "RI"}, {"Eugene", "OR"},
}

var statuses = []string{
	"Chasing golden hour", "Out exploring", "Coffee first", "Back from the mountains",
	"Learning film photography", "On the road again", "Home with the cat", "Weekend mode",
	"Trying a new lens", "Busy, shooting later", "Sunrise hunter", "Just vibing",
}

var interests = []string{
	"photography", "hiking", "travel", "cooking", "cycling", "music", "art", "architecture",
	"coffee", "climbing", "surfing", "gardening", "film", "cats", "dogs", "street food",
	"running", "skiing", "birding", "astronomy", "design", "fashion", "books", "yoga",
}
